import { describe, expect, it } from 'vitest';
import { JsonEvents } from './json-events';
import { OutputFlow } from './output-flow';
import type { RunEvent } from './run-events';

function capture() {
  const chunks: string[] = [];
  const output = new OutputFlow({ stdout: () => true, stdoutBytes: (b) => void chunks.push(Buffer.from(b).toString('utf8')) });
  return { events: new JsonEvents(output), text: () => (output.flush(), chunks.join('')) };
}

const agent = { index: 1, label: 'claude' };

describe('JsonEvents', () => {
  it("prints an update from its agent line's bytes exactly as JSON.stringify prints the event", () => {
    const update = { sessionUpdate: 'tool_call', toolCallId: 't', content: [{ type: 'diff', path: '/a', oldText: 'x\n"q"', newText: 'ü🚀\u0001' }] };
    const line = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } }));
    const event: RunEvent = { type: 'update', agent, update };
    const c = capture();
    c.events.write(event, line);
    c.events.write(event, line); // the prefix is cached per agent
    expect(c.text()).toBe(`${JSON.stringify(event)}\n`.repeat(2));
  });

  it('serializes the event when the line is not in JSON.stringify form, or absent, and every other event', () => {
    const update = { a: 1, b: 'x/y' };
    const spaced = Buffer.from('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"a": 1,"b":"x\\/y"}}}');
    const events: RunEvent[] = [
      { type: 'update', agent, update },
      { type: 'update', agent, update },
      { type: 'notice', agent, message: 'hi' },
      { type: 'turn_end', agent, stopReason: 'end_turn' },
    ];
    const c = capture();
    c.events.write(events[0]!, spaced);
    for (const e of events.slice(1)) c.events.write(e);
    expect(c.text()).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  });
});
