import { appendFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldTraceFile, foldTraceFileSync, type FoldInput } from './fold-file';
import { LineHintWriter, TraceHints, uEscapesTaken } from './line-hints';
import { SKELETON_MIN_STRING } from './line-skeleton';
import { RawJsonText } from './raw-json-text';
import { header, tempDataDir } from './testing/traces';

const T0 = Date.UTC(2026, 4, 2, 9, 0, 0);

/** Escapes JSON.parse accepts, each after a few letters, in every combination of neighbours. */
const ESCAPES = ['\\n', '\\t', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\u0000', '\\u001b', '\\u001F', '\\u000a', '\\u007f', '\\u007F', '\\u0065', '\\u0041', '\\u00e9', '\\u2028', '\\u0020', '\\u0080', '\\u0100', '\\u017f', '\\\\u0065', '\\\\\\u0065', '\\\\\\u001b', 'é', 'u', '\\\\u'];

describe('the fold’s check of a long string’s escapes', () => {
  it('takes a string JSON.parse accepted exactly when RawJsonText.take does', () => {
    let taken = 0;
    let refused = 0;
    for (const a of ESCAPES) {
      for (const b of ESCAPES) {
        for (const c of ['', ...ESCAPES]) {
          const json = `"ab${a}cd${b}${c}ef"`;
          JSON.parse(json); // a string JSON.parse accepts, as the fold's lines are
          const line = Buffer.from(json, 'utf8');
          const expected = RawJsonText.take(line, 1, line.length - 1) !== undefined;
          expect(uEscapesTaken(line, 1, line.length - 1), json).toBe(expected);
          if (expected) taken++;
          else refused++;
        }
      }
    }
    expect(taken).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});

describe('a file’s hints', () => {
  const hints = new TraceHints({ ino: 7, mtimeMs: 1000.5 }, [
    [100, 20000, 10, 19990, 1],
    [30000, 40000, 5, 17000, 0, 17010, 39990, 1],
    [90000, 17000, 3, 16990, 1],
  ]);

  it('fit the file version they were written for only', () => {
    expect(hints.fits({ ino: 7, mtimeMs: 1000.5 })).toBe(true);
    expect(hints.fits({ ino: 7, mtimeMs: 1000.6 })).toBe(false);
    expect(hints.fits({ ino: 8, mtimeMs: 1000.5 })).toBe(false);
  });

  it('are found by the line’s offset, and the next one after any byte', () => {
    expect(hints.at(100)).toEqual([100, 20000, 10, 19990, 1]);
    expect(hints.at(30000)![0]).toBe(30000);
    expect(hints.at(90000)![0]).toBe(90000);
    for (const x of [0, 99, 101, 29999, 30001, 89999, 90001, 200000]) expect(hints.at(x)).toBeUndefined();
    expect(hints.after(0)).toBe(100);
    expect(hints.after(99)).toBe(100);
    expect(hints.after(100)).toBe(30000);
    expect(hints.after(29999)).toBe(30000);
    expect(hints.after(30000)).toBe(90000);
    expect(hints.after(90000)).toBe(Number.POSITIVE_INFINITY);
    expect(new TraceHints({ ino: 1, mtimeMs: 1 }, []).after(0)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the fold’s hints', () => {
  const S = 'SESSION-1';
  const long = (word: string, n = SKELETON_MIN_STRING + 100) => `${word} ${'x'.repeat(n)}`;
  const terminal = (id: string, output: string) => JSON.stringify({ kind: 'terminal', t: 6, sessionId: S, terminalId: id, action: 'exited', exitCode: 0, signal: null, output });
  const lines = [
    terminal('t1', long('error')),
    terminal('t2', `${long('é')} \u001b[0m`),
    JSON.stringify({ kind: 'terminal', t: 6, sessionId: S, terminalId: 't3', action: 'exited', output: 'short' }),
    terminal('t4', long('naïve')).replace('naïve', '\\u006eaive'), // an escape to a letter: not taken
    `${terminal('t5', long('x'))} trailing`, // not a record: no hint
    terminal('t6', long('ok')),
  ];

  function input(path: string, from: { position: number; lines: number; detailJson: string }): FoldInput {
    const st = statSync(path);
    return { path, name: 'x.jsonl', ...from, imported: false, mtimeMs: st.mtimeMs, now: st.mtimeMs + 1000 };
  }

  it('say which long strings of which lines a snippet search takes, the same when caught up as when read whole', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-hints-');
    try {
      const path = join(traces, 'x.jsonl');
      const head = `${JSON.stringify(header('x', T0))}\n`;
      writeFileSync(path, `${head}${lines.slice(0, 3).join('\n')}\n`);
      const first = await foldTraceFile(input(path, { position: 0, lines: 0, detailJson: '' }));
      appendFileSync(path, `${lines.slice(3).join('\n')}\n`);
      const caughtUp = foldTraceFileSync(input(path, { position: first.tail.position, lines: first.tail.lines, detailJson: JSON.stringify(first.detail) }));
      const whole = foldTraceFileSync(input(path, { position: 0, lines: 0, detailJson: '' }));
      expect(caughtUp.detail.hints).toEqual(whole.detail.hints);

      const offsets: number[] = [];
      let at = head.length;
      for (const l of lines) {
        offsets.push(at);
        at += Buffer.byteLength(l) + 1;
      }
      const quoted = (k: number, text: string) => {
        const start = Buffer.from(lines[k]!).indexOf(Buffer.from(JSON.stringify(text))) + 1;
        return [start, start + Buffer.byteLength(JSON.stringify(text)) - 2];
      };
      expect(whole.detail.hints).toEqual([
        [offsets[0], Buffer.byteLength(lines[0]!), ...quoted(0, long('error')), 1],
        [offsets[1], Buffer.byteLength(lines[1]!), ...quoted(1, `${long('é')} \u001b[0m`), 0],
        [offsets[5], Buffer.byteLength(lines[5]!), ...quoted(5, long('ok')), 1],
      ]);
      // A file without long lines has none (the detail gets no field).
      writeFileSync(path, `${head}${lines[2]}\n`);
      expect(foldTraceFileSync(input(path, { position: 0, lines: 0, detailJson: '' })).detail.hints).toBeUndefined();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('are appended to the file’s hints so far', () => {
    const kept = [[1, 2, 3, 4, 1]];
    const writer = new LineHintWriter(kept);
    writer.note(Buffer.from(lines[0]!), 500, true);
    writer.note(Buffer.from(lines[2]!), 900, true);
    expect(writer.hints).toBe(kept);
    expect(kept.map((h) => h[0])).toEqual([1, 500]);
  });
});
