import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceItem } from '../../../common/trace/parse';
import { readTrace, readTraceFile } from './trace-reader';

const header = JSON.stringify({ kind: 'header', format: 'acp-workbench-trace', version: 1, connectionId: 'C', startedAt: '2026-01-01T00:00:00Z', startedAtMs: 0, launch: { command: 'x', args: [], cwd: '/', env: [] }, clientCapabilities: null });
const stderr = (t: number, text = `line ${t}`) => JSON.stringify({ kind: 'stderr', t, text });
function file(content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'acpwb-read-')), 'trace.jsonl');
  writeFileSync(path, content);
  return path;
}

describe('readTrace', () => {
  it('streams header and records with their line numbers, across read chunks', async () => {
    const long = 'y'.repeat(200_000);
    const path = file(`${header}\n${stderr(1)}\n${stderr(2, long)}\n${stderr(3)}\n`);
    const items: TraceItem[] = [];
    for await (const item of readTrace(path)) items.push(item);
    expect(items.map((i) => [i.type, i.line])).toEqual([
      ['header', 1],
      ['record', 2],
      ['record', 3],
      ['record', 4],
    ]);
    expect(items[2]).toMatchObject({ record: { text: long } });
  });

  it('reports corrupt lines (bad JSON, invalid UTF-8) by number and keeps reading; CRLF is tolerated', async () => {
    const path = file(Buffer.concat([Buffer.from(`${header}\r\nnot json\n`), Buffer.from([0xff, 0xfe, 0x7b, 0x0a]), Buffer.from(`${stderr(4)}\n`)]));
    const trace = await readTraceFile(path);
    expect(trace.header?.connectionId).toBe('C');
    expect(trace.records.map((r) => r.t)).toEqual([4]);
    expect(trace.corrupt).toMatchObject([
      { line: 2, text: 'not json' },
      { line: 3, reason: 'not valid UTF-8' },
    ]);
  });

  it('reports a torn last line as torn, not fatal, after the records before it', async () => {
    const path = file(`${header}\n${stderr(1)}\n{"kind":"stderr","t":2,"tex`);
    const trace = await readTraceFile(path);
    expect(trace.records).toHaveLength(1);
    expect(trace.corrupt).toEqual([expect.objectContaining({ line: 3, torn: true, text: '{"kind":"stderr","t":2,"tex' })]);
  });

  it('an empty file has no header and nothing to report', async () => {
    expect(await readTraceFile(file(''))).toEqual({ header: undefined, records: [], corrupt: [] });
  });

  it('rejects when the file cannot be opened', async () => {
    await expect(readTraceFile('/nonexistent/trace.jsonl')).rejects.toThrow(/ENOENT/);
  });
});
