import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTraceFile } from './trace-reader';

const dir = mkdtempSync(join(tmpdir(), 'acpwb-crash-'));
const child = join(dir, 'crash-child.cjs');

beforeAll(async () => {
  await build({ entryPoints: [join(__dirname, 'testing', 'crash-child.ts')], outfile: child, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
});

function start(mode: 'steady' | 'torn', path: string): { proc: ChildProcess; lines: AsyncIterator<string> } {
  const proc = spawn(process.execPath, [child, mode, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { proc, lines: createInterface({ input: proc.stdout! })[Symbol.asyncIterator]() };
}
async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error('the child ended early');
  return value;
}
function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}
const payload = (text: string) => JSON.parse(text) as { seq: number; wall: number };

describe('a trace writer killed with SIGKILL', () => {
  it('leaves every record appended more than one flush interval before the kill, in order', async () => {
    const path = join(dir, 'steady.jsonl');
    const { proc, lines } = start('steady', path);
    expect(await nextLine(lines)).toBe('ready');
    await new Promise((r) => setTimeout(r, 700));
    const killedAt = Date.now();
    await kill(proc);

    const trace = await readTraceFile(path);
    expect(trace.header?.connectionId).toBe('crash-test');
    // At most the last line may be damaged, and then only torn.
    expect(trace.corrupt.length).toBeLessThanOrEqual(1);
    for (const c of trace.corrupt) expect(c).toMatchObject({ torn: true });
    const records = trace.records.map((r) => payload((r as { text: string }).text));
    expect(records.length).toBeGreaterThan(50);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    // 100 ms flush window, plus scheduling slack on a loaded 2-core machine.
    const lastWall = records.at(-1)!.wall;
    expect(killedAt - lastWall).toBeLessThan(100 + 250);
  });

  it('reads back up to the last flush and reports the half-written line as torn', async () => {
    const path = join(dir, 'torn.jsonl');
    const { proc, lines } = start('torn', path);
    expect(await nextLine(lines)).toBe('flushed 10');
    expect(await nextLine(lines)).toBe('mid-line');
    await kill(proc);

    const trace = await readTraceFile(path);
    expect(trace.records.map((r) => payload((r as { text: string }).text).seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(trace.corrupt).toEqual([expect.objectContaining({ line: 12, torn: true })]);
    expect(trace.corrupt[0]!.reason).toMatch(/^torn last line/);
  });
});
