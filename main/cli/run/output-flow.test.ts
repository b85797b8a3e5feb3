import { describe, expect, it } from 'vitest';
import { OutputFlow } from './output-flow';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An output that records each write; `accept` says what the stream answers. */
function sink(options: { bytes?: boolean; accept?: () => boolean } = {}) {
  const writes: string[] = [];
  let drain: (() => void) | undefined;
  const io = {
    stdout: (text: string) => {
      writes.push(`text:${text}`);
      return options.accept?.() ?? true;
    },
    ...(options.bytes ? { stdoutBytes: (b: Uint8Array) => (writes.push(Buffer.from(b).toString('utf8')), options.accept?.() ?? true) } : {}),
    drained: () => new Promise<void>((resolve) => (drain = resolve)),
  };
  return { io, writes, drain: () => drain?.() };
}

describe('OutputFlow', () => {
  it('gathers text and bytes, in order, into one write on the next turn of the event loop', async () => {
    const s = sink({ bytes: true });
    const out = new OutputFlow(s.io);
    out.text('{"a":1}\n');
    out.bytes(Buffer.from('ünï🚀'));
    out.text('é\n');
    expect(s.writes).toEqual([]);
    await nextTurn();
    expect(s.writes).toEqual(['{"a":1}\nünï🚀é\n']);
  });

  it('writes text as text where the output takes no bytes (tests, the io of runCli callers)', async () => {
    const s = sink();
    const out = new OutputFlow(s.io);
    out.bytes(Buffer.from('x'));
    out.text('y');
    out.flush();
    expect(s.writes).toEqual(['text:xy']);
    out.flush(); // nothing gathered: no write
    expect(s.writes).toHaveLength(1);
  });

  it('writes a full batch before taking more, and what does not fit a batch on its own, keeping the order', () => {
    const s = sink({ bytes: true });
    const out = new OutputFlow(s.io, 16);
    out.text('abc'); // 3 units may need 9 bytes: fits
    out.text('d'); // 3 more: still fits
    out.text('efghi'); // may need 15 bytes, 12 left: the batch goes first
    out.bytes(Buffer.from('0123456789abcdefXYZ')); // larger than a batch: on its own, after what was gathered
    out.bytes(Buffer.from('end'));
    out.flush();
    expect(s.writes).toEqual(['abcd', 'efghi', '0123456789abcdefXYZ', 'end']);
  });

  it('does not reuse a buffer it handed to the stream', () => {
    const kept: Uint8Array[] = [];
    const out = new OutputFlow({ stdout: () => true, stdoutBytes: (b) => void kept.push(b) }, 8);
    out.text('first');
    out.flush();
    out.text('second');
    out.flush();
    expect(kept.map((b) => Buffer.from(b).toString())).toEqual(['first', 'second']);
  });

  it('is full from a write the stream refused until it drained', async () => {
    let accept = false;
    const s = sink({ bytes: true, accept: () => accept });
    const out = new OutputFlow(s.io);
    out.text('x');
    expect(out.full).toBeUndefined(); // gathered, not written yet
    out.flush();
    const full = out.full;
    expect(full).toBeInstanceOf(Promise);
    out.text('y');
    out.flush();
    expect(out.full).toBe(full); // one wait, however many writes meanwhile
    accept = true;
    s.drain();
    await full;
    expect(out.full).toBeUndefined();
  });
});
