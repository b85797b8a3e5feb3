import { describe, expect, it } from 'vitest';
import { parseClientFrame } from './wire';

describe('parseClientFrame', () => {
  it('reads requests and acknowledgements', () => {
    expect(parseClientFrame('{"t":"req","id":3,"name":"app/ping","params":{"nonce":"x"}}')).toEqual({ t: 'req', id: 3, name: 'app/ping', params: { nonce: 'x' } });
    expect(parseClientFrame('{"t":"ack","n":12}')).toEqual({ t: 'ack', n: 12 });
  });

  it('refuses anything else: the bridge closes the socket on null', () => {
    for (const text of ['', 'not json', 'null', '42', '[]', '{"t":"req","id":"3","name":"app/ping"}', '{"t":"req","id":3}', '{"t":"ack"}', '{"t":"ack","n":"12"}', '{"t":"ack","n":1.5}', '{"t":"ack","n":1e300}', '{"t":"evts","n":1,"items":[]}']) {
      expect(parseClientFrame(text), text).toBeNull();
    }
  });
});
