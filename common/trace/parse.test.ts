import { describe, expect, it } from 'vitest';
import { parseTraceText, TraceLineParser } from './parse';

const header = JSON.stringify({ kind: 'header', format: 'acp-workbench-trace', version: 1, connectionId: 'C', startedAt: '2026-01-01T00:00:00Z', startedAtMs: 0, launch: { command: 'x', args: [], cwd: '/', env: [] }, clientCapabilities: null });
const record = (fields: object) => JSON.stringify({ t: 1, ...fields });

describe('parseTraceText', () => {
  it('reads the header and the records, and accepts a complete last line without its newline', () => {
    const text = [header, record({ kind: 'stderr', text: 'a' }), record({ kind: 'exit', code: 0, signal: null })].join('\n');
    const parsed = parseTraceText(text);
    expect(parsed.header?.connectionId).toBe('C');
    expect(parsed.records.map((r) => r.kind)).toEqual(['stderr', 'exit']);
    expect(parsed.corrupt).toEqual([]);
  });

  it('reports every bad line with its number and why, and goes on', () => {
    const lines = [
      header,
      'garbage',
      '',
      '[1,2]',
      record({ kind: 'nope' }),
      JSON.stringify({ kind: 'stderr', text: 'no t' }),
      record({ kind: 'wire', dir: 'in', msg: 'not an object' }),
      record({ kind: 'permission-decided', requestId: 1, outcome: 'maybe', by: 'user' }),
      header,
      record({ kind: 'stderr', text: 'fine' }),
    ];
    const parsed = parseTraceText(`${lines.join('\n')}\n`);
    expect(parsed.records).toHaveLength(1);
    expect(parsed.corrupt.map((c) => [c.line, c.reason.split(' (')[0]])).toEqual([
      [2, 'not JSON'],
      [3, 'empty line'],
      [4, 'not a JSON object'],
      [5, 'unknown record kind "nope"'],
      [6, 'missing timestamp "t"'],
      [7, 'wire record: "msg" is not an object'],
      [8, 'permission-decided record: bad "outcome"'],
      [9, 'a header after line 1'],
    ]);
    expect(parsed.corrupt[0]!.text).toBe('garbage');
  });

  it('reports a torn last line as torn', () => {
    const parsed = parseTraceText(`${header}\n${record({ kind: 'stderr', text: 'ok' })}\n{"kind":"stderr","t":2,"te`);
    expect(parsed.records).toHaveLength(1);
    expect(parsed.corrupt).toMatchObject([{ line: 3, torn: true, text: '{"kind":"stderr","t":2,"te' }]);
    expect(parsed.corrupt[0]!.reason).toMatch(/^torn last line/);
  });

  it('refuses a header of a newer format version and one that is not a trace header', () => {
    expect(parseTraceText(`${header.replace('"version":1', '"version":2')}\n`).corrupt[0]!.reason).toMatch(/version 2 is newer/);
    expect(parseTraceText(`${record({ kind: 'stderr', text: 'x' })}\n`).corrupt[0]).toMatchObject({ line: 1, reason: 'line 1 is not a trace header' });
  });

  it('counts lines the caller could not decode', () => {
    const parser = new TraceLineParser();
    parser.parse(header);
    expect(parser.reject('not valid UTF-8', '\ufffd')).toMatchObject({ type: 'corrupt', line: 2, reason: 'not valid UTF-8' });
    expect(parser.parse(record({ kind: 'stderr', text: 'x' }))).toMatchObject({ type: 'record', line: 3 });
  });
});
