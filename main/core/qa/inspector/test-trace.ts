/**
 * Tests of the inspector: a real trace file to feed it, and the cleanup after each test. The
 * inspector keeps no message text; it reads lines back from this file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from '../../../../common/trace/records';
import { TraceWriter } from '../../history/trace-writer';

const dirs: string[] = [];
const writers: TraceWriter[] = [];

/** Registers the cleanup in the calling test file (call once at its top level). */
export function cleanUpTestTraces(): void {
  afterEach(async () => {
    for (const w of writers.splice(0)) await w.close().catch(() => undefined);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

/** A trace writer on a fresh file in a temporary folder, closed and removed after the test. */
export async function openTestTrace(prefix: string): Promise<TraceWriter> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  const writer = await TraceWriter.open(join(dir, 'conn.jsonl'), {
    kind: 'header',
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    connectionId: 'C1',
    startedAt: '2026-12-01T10:00:00.000Z',
    startedAtMs: 0,
    launch: { command: 'agent', args: [], cwd: '/w', env: [] },
    clientCapabilities: {},
  });
  writers.push(writer);
  return writer;
}
