import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../test-support/run-cli';

const ROOT = resolve(__dirname, '..', '..', '..');
const AGENT = join(ROOT, 'dist', 'fixtures', 'fixture-agent.cjs');
const scenario = (name: string) => `node ${AGENT} --scenario ${join(ROOT, 'e2e', 'fixtures', 'scenarios', `${name}.json`)}`;
const base = mkdtempSync(join(tmpdir(), 'acpwb-continue-cli-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { type: string });

/** `run` of one scenario agent in a data folder of its own: the folder and the recorded session's id. */
async function recordedRun(name: string, scenarioName: string, extra: string[]): Promise<{ dataDir: string; parent: string }> {
  const dataDir = join(base, `data-${name}`);
  const cwd = join(base, `project-${name}`);
  mkdirSync(cwd);
  const run = await runBuiltCli(['run', '--data-dir', dataDir, '--cwd', cwd, '--agent-cmd', scenario(scenarioName), ...extra, '--prompt', 'first question', '--approve', 'none', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return { dataDir, parent: (jsonLines(run.stdout).find((e) => e.type === 'session') as unknown as { id: string }).id };
}

describe('acp-workbench sessions resume | fork | tree', () => {
  it('resumes with the recorded environment, forks onto another agent, and prints the lineage', async () => {
    const { dataDir, parent } = await recordedRun('plain', 'history-load-only', ['--env', 'HISTORY_MARK=cli']);

    const resumed = await runBuiltCli(['sessions', 'resume', parent.slice(0, 12), '--data-dir', dataDir, '--prompt', 'second question', '--approve', 'none', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = jsonLines(resumed.stdout);
    const summary = events.at(-1)!;
    expect(summary).toMatchObject({ type: 'summary', resumedBy: 'load', parent, stopReason: 'end_turn' });
    const texts = events.filter((e) => e.type === 'update').map((e) => (e.update as { content?: { text?: string } }).content?.text);
    expect(texts).toContain('[cli] You said: second question');

    const forked = await runBuiltCli(['sessions', 'fork', parent, '--at', '1', '--agent-cmd', scenario('history-plain'), '--env', 'HISTORY_MARK=other', '--data-dir', dataDir, '--prompt', 'a different first question', '--approve', 'none', '--json']);
    expect(forked.code, forked.stderr).toBe(0);
    expect(jsonLines(forked.stdout).at(-1)).toMatchObject({ type: 'summary', forkedBy: 'primed', parent });

    const tree = await runBuiltCli(['sessions', 'tree', parent, '--data-dir', dataDir]);
    expect(tree.code, tree.stderr).toBe(0);
    const lines = tree.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${parent} .*\\*$`));
    expect(tree.stdout).toContain('[resume by load]');
    expect(tree.stdout).toContain('[fork by primed, before message 1]');

    const bad = await runBuiltCli(['sessions', 'fork', parent, '--at', '5', '--data-dir', dataDir, '--prompt', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no user message 5/);
  });

  it('switches client capabilities with --capability, and refuses an unknown one', async () => {
    const { dataDir, parent } = await recordedRun('capability', 'history-resume', ['--capability', 'terminal=off']);
    // What the session's agent was offered: the trace header's `clientCapabilities`.
    const advertised = async (id: string) => {
      const shown = await runBuiltCli(['sessions', 'show', id, '--data-dir', dataDir, '--json']);
      expect(shown.code, shown.stderr).toBe(0);
      const session = jsonLines(shown.stdout)[0] as unknown as { traces: { path: string }[] };
      const header = JSON.parse(readFileSync(session.traces[0]!.path, 'utf8').split('\n')[0]!) as { clientCapabilities?: unknown };
      return header.clientCapabilities;
    };
    expect(await advertised(parent)).toMatchObject({ terminal: false });

    const resumed = await runBuiltCli(['sessions', 'resume', parent, '--data-dir', dataDir, '--capability', 'terminal=on', '--capability', 'fs.writeTextFile=off', '--prompt', 'second question', '--approve', 'none', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const child = (jsonLines(resumed.stdout).at(-1) as unknown as { id: string }).id;
    expect(await advertised(child)).toMatchObject({ fs: { readTextFile: true, writeTextFile: false }, terminal: true });

    const bad = await runBuiltCli(['sessions', 'fork', parent, '--data-dir', dataDir, '--capability', 'auth.terminal=on', '--prompt', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown capability "auth.terminal"/);
  });
});
