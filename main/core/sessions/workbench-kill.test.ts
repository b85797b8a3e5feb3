/**
 * The workbench SIGKILLed during a 4-agent stream, then started again (issue #12, item 2): the
 * traces read back intact up to the last flush (at most a torn last line, reported as such), the
 * agents the killed core started are reaped at the new start from the process registry (pids with
 * start times), the history index finds all four sessions again, and no agent process is left.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reapLeftovers } from '../acp/process-registry';
import { FIXTURE_AGENT } from '../acp/test-support/fixture-world';
import { orphansAfter, processesMatching } from '../acp/test-support/process-listing';
import { HistoryStore } from '../history/history-store';
import { readTraceFile } from '../history/trace-reader';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-kill-')));
const child = join(base, 'core-child.cjs');
const dataDir = join(base, 'data');
const cwd = join(base, 'project');
const marker = join(base, 'agent-marker');
/** Only the agents carry this (their --log-file); the core's own argv has the marker alone. */
const agents = `${marker}-`;

beforeAll(async () => {
  mkdirSync(cwd);
  await build({
    entryPoints: [join(__dirname, 'test-support', 'core-child.ts')],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
    define: { __WORKBENCH_VERSION__: '"0.0.0-test"' },
  });
});
afterAll(async () => {
  for (const p of processesMatching(agents)) process.kill(p.pid, 'SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

describe('a workbench SIGKILLed while 4 agents stream', () => {
  it('keeps its traces, is reaped and healed at the next start, and leaves no agent behind', async () => {
    const core = spawn(process.execPath, [child, dataDir, cwd, FIXTURE_AGENT, marker, join(__dirname, 'test-support')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => core.once('exit', () => resolve()));
    const first = await createInterface({ input: core.stdout! })[Symbol.asyncIterator]().next();
    expect(first.done).toBeFalsy();
    const { sessions } = JSON.parse(first.value as string) as { sessions: Array<{ id: string; trace: string }> };
    expect(sessions).toHaveLength(4);
    expect(processesMatching(agents)).toHaveLength(4);

    core.kill('SIGKILL');
    await exited;

    // Traces: every record flushed before the kill is there; only a last line may be torn.
    for (const s of sessions) {
      const parsed = await readTraceFile(s.trace);
      const kinds = parsed.records.map((r) => r.kind);
      expect(kinds.slice(0, 1)).toEqual(['spawn']);
      expect(kinds).toContain('session');
      expect(parsed.records.some((r) => r.kind === 'wire' && r.dir === 'out' && r.msg.method === 'session/prompt')).toBe(true);
      expect(parsed.records.some((r) => r.kind === 'wire' && JSON.stringify(r.msg).includes('agent_message_chunk'))).toBe(true);
      expect(parsed.corrupt.length).toBeLessThanOrEqual(1);
      for (const c of parsed.corrupt) expect(c.line).toBe(parsed.records.length + 2);
    }

    // The agents that ignore stdin EOF outlived the workbench; the next start reaps them.
    // (The streaming ones may die of EPIPE on their own at any moment: only the waiting ones are sure.)
    const survivors = [...processesMatching(`${agents}1.log`), ...processesMatching(`${agents}3.log`)];
    expect(survivors).toHaveLength(2);
    const report = await reapLeftovers(dataDir, { termGraceMs: 1000 });
    expect(report.removedFiles).toHaveLength(1);
    expect(report.killed.map((e) => e.pid).sort(), JSON.stringify(report)).toEqual(expect.arrayContaining(survivors.map((p) => p.pid).sort()));
    expect(await orphansAfter(agents)).toEqual([]);

    // The history index heals: all four sessions are listed again, none of them still "running".
    const history = await HistoryStore.open(dataDir);
    const listed = history.list();
    expect(listed.map((e) => e.id).sort()).toEqual(sessions.map((s) => s.id).sort());
    for (const e of listed) {
      expect(e.agentSessionId).toBeTruthy();
      expect(e.status).not.toBe('running');
      expect(e.turns + (e.firstPrompt ? 1 : 0)).toBeGreaterThan(0);
    }
  });
});
