import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocketWorkbench } from './ws-client';

/** A stand-in for the browser's WebSocket: records what is sent, lets the test deliver frames. */
class FakeSocket {
  static readonly OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

describe('WebSocketWorkbench: event frames', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hands each event to its listeners in order, then acknowledges the frame by its number', () => {
    const client = new WebSocketWorkbench('ws://host/api');
    const socket = FakeSocket.instances[0]!;
    socket.open();
    const order: string[] = [];
    client.on('app/notice', (p) => {
      order.push(`notice:${p.title}`);
      order.push(`sent so far:${socket.sent.length}`); // nothing acknowledged before the listeners ran
    });
    socket.receive({ t: 'evts', n: 7, items: [['app/notice', { severity: 'info', title: 'a' }], ['app/other', {}], ['app/notice', { severity: 'info', title: 'b' }]] });
    expect(order).toEqual(['notice:a', 'sent so far:0', 'notice:b', 'sent so far:0']);
    expect(socket.sent.map((s) => JSON.parse(s))).toEqual([{ t: 'ack', n: 7 }]);
    client.dispose();
  });

  it('acknowledges a frame whose listener throws (the core would otherwise hold every later event)', () => {
    const client = new WebSocketWorkbench('ws://host/api');
    const socket = FakeSocket.instances[0]!;
    socket.open();
    client.on('app/notice', () => {
      throw new Error('listener failed');
    });
    expect(() => socket.receive({ t: 'evts', n: 1, items: [['app/notice', { severity: 'info', title: 'a' }]] })).toThrow('listener failed');
    expect(socket.sent.map((s) => JSON.parse(s))).toEqual([{ t: 'ack', n: 1 }]);
    client.dispose();
  });

  it('does not queue an acknowledgement for a closed socket: after reconnecting only requests go out', async () => {
    vi.useFakeTimers();
    try {
      const client = new WebSocketWorkbench('ws://host/api');
      const first = FakeSocket.instances[0]!;
      first.open();
      first.readyState = 3; // closing: frames still arrive, nothing can be sent
      first.receive({ t: 'evts', n: 2, items: [] });
      first.onclose?.();
      const answer = client.request('app/ping', { nonce: 'x' });
      await vi.advanceTimersByTimeAsync(300);
      const second = FakeSocket.instances[1]!;
      second.open();
      expect(first.sent).toEqual([]);
      expect(second.sent.map((s) => JSON.parse(s))).toEqual([{ t: 'req', id: 1, name: 'app/ping', params: { nonce: 'x' } }]);
      second.receive({ t: 'res', id: 1, ok: true, result: { nonce: 'x' } });
      await expect(answer).resolves.toEqual({ nonce: 'x' });
      client.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
