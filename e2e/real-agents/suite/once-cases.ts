/**
 * The suite's cases that run once (not per agent):
 *  - `compare`: one isolated compare run (`acp-workbench run --isolate --json`) of two different
 *    real agents in a temp git repository, prompt `[scenario:full]`; the `comparison` event's
 *    figures are checked against each workspace on disk (`git diff --numstat` against the run's
 *    base, untracked files included), then `runs discard RUN` must remove the workspaces;
 *  - `resume-fork`: with an agent that advertises `sessionCapabilities.resume` and `fork`
 *    (Claude 0.49): a turn through `run`, then `sessions resume ID` and `sessions fork ID` through
 *    the CLI with the same agent HOME/env; the summaries, the files each turn wrote and the
 *    transcripts (no user message twice) are checked.
 * Each agent gets its own throw-away HOME (agents.ts); in a compare run both agents share the CLI,
 * so each one is started through a small wrapper script (named after the agent, which becomes its
 * label) that exports its own environment.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentLaunch, AgentSpec } from '../agents';
import type { ModelServer } from '../model-server/server';
import { DEFAULTS } from '../model-server/scenarios';
import { stepsPlayed } from '../smoke-checks';
import { ONCE_CASES, type CaseResult, type OnceCaseName } from './cases';

export { ONCE_CASES, type OnceCaseName };
import { caseStatus, check, type Check } from './checks';
import { envFlags, runCliArgs, shellQuote, type CliEvent, type CliRunResult } from './cli-run';
import { expectationsFor } from './expectations';
import { collectOrphans, describeProcess } from './processes';


/** The agents each once-case runs (the first installed choice is used for resume-fork). */
export const ONCE_AGENTS: Record<OnceCaseName, string[]> = {
  compare: ['claude-0.49', 'opencode'],
  'resume-fork': ['claude-0.49'],
};

export interface OnceContext {
  specs: AgentSpec[];
  server: ModelServer;
  cli: string;
  out: string;
}

const git = (cwd: string, args: string[], env?: NodeJS.ProcessEnv): string =>
  execFileSync('git', ['-c', 'user.name=suite', '-c', 'user.email=suite@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });

function emptyResult(agent: string, name: OnceCaseName, out: string): CaseResult {
  return { agent, case: name, status: 'failed', checks: [], durationMs: 0, toolCalls: 0, permissions: 0, diskChanges: [], reportedFiles: [], steps: '', findings: [], clientCalls: {}, permissionsSeen: [], orphans: [], out };
}

function caseOut(ctx: OnceContext, name: OnceCaseName): string {
  const dir = join(ctx.out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

function errorOf(run: CliRunResult): string {
  const errors = run.events.filter((e) => e.type === 'error').map((e) => String(e['message']));
  if (errors.length) return errors.join(' | ').slice(0, 300);
  const tail = run.stderr.trim().split('\n').slice(-2).join(' | ');
  return tail ? `stderr: ${tail.slice(0, 300)}` : 'no error';
}

const exitCheck = (what: string, run: CliRunResult): Check =>
  check(`${what}: cli exit 0`, run.exitCode === 0 && !run.killed, `exit ${String(run.exitCode)}${run.signal ? ` ${run.signal}` : ''}${run.killed ? ' (killed: hung)' : ''}; ${errorOf(run)}`);

/** A `#!/bin/sh` wrapper that exports the launch's environment and execs the agent; its file name is the agent's label. */
export function wrapperFor(launch: AgentLaunch, dir: string, name: string): string {
  const path = join(dir, name);
  const exports = Object.entries(launch.env)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `export ${k}=${shellQuote(String(v))}`);
  writeFileSync(path, `#!/bin/sh\n${exports.join('\n')}\nexec ${[launch.command, ...launch.args].map(shellQuote).join(' ')} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

const readIf = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

interface NumstatRow {
  path: string;
  added: number | null;
  removed: number | null;
}

/** What changed in a workspace against `base`, untracked files included, without touching the workspace's index. */
function diskNumstat(workspace: string, base: string, scratch: string): NumstatRow[] {
  const env = { ...process.env, GIT_INDEX_FILE: join(scratch, `index-${Math.random().toString(36).slice(2)}`) };
  git(workspace, ['read-tree', base], env);
  git(workspace, ['add', '-A'], env);
  const out = git(workspace, ['diff', '--cached', '--numstat', base], env);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [a, r, ...p] = line.split('\t');
      return { path: p.join('\t'), added: a === '-' ? null : Number(a), removed: r === '-' ? null : Number(r) };
    })
    .sort((x, y) => x.path.localeCompare(y.path));
}

interface ComparisonAgent {
  index: number;
  label: string;
  status: string;
  stopReason: string | null;
  workspace: string;
  cwd: string;
  toolCalls: number;
  permissionRequests: number;
  filesChanged: { path: string; status: string; added: number | null; removed: number | null }[];
  linesAdded: number;
  linesRemoved: number;
}

/** `compare`: two real agents in one isolated compare run, its figures against the disk, then discard. */
export async function runCompare(ctx: OnceContext): Promise<CaseResult> {
  const started = Date.now();
  const ids = ctx.specs.map((s) => s.id);
  const out = caseOut(ctx, 'compare');
  const result = emptyResult(ids.join('+'), 'compare', out);
  const checks = result.checks;
  const work = mkdtempSync(join(tmpdir(), 'acp-real-compare-'));
  const repo = join(work, 'repo');
  const dataDir = join(work, 'data');
  const cliHome = join(work, 'cli-home');
  mkdirSync(repo, { recursive: true });
  mkdirSync(cliHome, { recursive: true });
  const launches = ctx.specs.map((spec) => spec.launch({ modelUrl: ctx.server.url, projectDir: repo }));
  const recordsStart = ctx.server.records.length;
  try {
    writeFileSync(join(repo, 'notes.txt'), `${DEFAULTS.oldText}\n`);
    writeFileSync(join(repo, 'README.md'), '# compare fixture\n');
    git(repo, ['init', '-q', '-b', 'main']);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'fixture']);
    const head = git(repo, ['rev-parse', 'HEAD']).trim();

    const args = [ctx.cli, 'run', '--isolate', '--json'];
    launches.forEach((l, i) => args.push('--agent-cmd', shellQuote(wrapperFor(l, l.sandboxDir, ctx.specs[i]!.id))));
    args.push('--cwd', repo, '--prompt', 'Plan the work, change the greeting in notes.txt, add a new file and run a command. [scenario:full]');
    args.push('--approve', 'all', '--timeout', '150', '--data-dir', dataDir, '--config-dir', join(work, 'config'));
    const cliEnv = { PATH: process.env['PATH'], LANG: 'C.UTF-8', HOME: cliHome, TMPDIR: process.env['TMPDIR'] ?? tmpdir() };
    const run = await runCliArgs({ args, env: cliEnv, cwd: repo, killAfterMs: 200_000, eventsFile: join(out, 'events.jsonl'), stderrFile: join(out, 'cli-stderr.txt') });
    checks.push(exitCheck('run --isolate', run));
    checks.push(check('stdout is JSON lines only', run.badLines.length === 0, run.badLines.length ? run.badLines[0]!.slice(0, 120) : `${run.events.length} events`));
    const runEvent = run.events.find((e) => e.type === 'run');
    const comparison = run.events.find((e) => e.type === 'comparison');
    const last = run.events[run.events.length - 1];
    checks.push(check('run event: worktree isolation', runEvent?.['isolation'] === 'worktree' && runEvent?.['base'] !== undefined, runEvent ? `isolation ${String(runEvent['isolation'])}, base ${String(runEvent['base']).slice(0, 12)}` : 'no run event'));
    checks.push(check('comparison event last', comparison !== undefined && last === comparison, comparison ? `status ${String(comparison['status'])}` : 'no comparison event'));
    const summaries = run.events.filter((e) => e.type === 'summary');
    result.toolCalls = summaries.reduce((n, s) => n + Number(s['toolCalls'] ?? 0), 0);
    result.permissions = summaries.reduce((n, s) => n + Number(s['permissionRequests'] ?? 0), 0);
    result.stopReason = summaries.map((s) => String(s['stopReason'])).join(',');
    result.agentInfo = run.events.filter((e) => e.type === 'initialized').map((e) => e['agentInfo']);
    if (comparison) {
      const base = String(comparison['base']);
      const agents = (comparison['agents'] as ComparisonAgent[] | undefined) ?? [];
      checks.push(check('comparison: one entry per agent', agents.length === ctx.specs.length && agents.every((a, i) => a.label === ctx.specs[i]!.id), agents.map((a) => `${a.index}:${a.label} ${a.status}`).join(', ')));
      const tree = (rev: string): string => git(repo, ['rev-parse', `${rev}^{tree}`]).trim();
      checks.push(check('comparison: base = snapshot of the clean source', base === runEvent?.['base'] && tree(base) === tree(head), `base ${base.slice(0, 12)} (tree ${tree(base).slice(0, 12)}), HEAD ${head.slice(0, 12)} (tree ${tree(head).slice(0, 12)})`));
      for (const a of agents) {
        const id = a.label;
        const agentChecks: Check[] = [];
        agentChecks.push(check('turn ends end_turn', a.stopReason === 'end_turn' && a.status === 'done', `status ${a.status}, stopReason ${String(a.stopReason)}`));
        const summary = summaries.find((s) => (s['agent'] as { index?: number } | undefined)?.index === a.index);
        agentChecks.push(check('figures match its summary', summary !== undefined && summary['toolCalls'] === a.toolCalls && summary['permissionRequests'] === a.permissionRequests, summary ? `tool calls ${a.toolCalls}/${String(summary['toolCalls'])}, permissions ${a.permissionRequests}/${String(summary['permissionRequests'])}` : 'no summary'));
        const workspaceExists = existsSync(a.workspace);
        agentChecks.push(check('workspace on disk', workspaceExists && a.workspace.startsWith(dataDir), a.workspace));
        if (workspaceExists) {
          const disk = diskNumstat(a.workspace, base, work);
          const reported = [...a.filesChanged].sort((x, y) => x.path.localeCompare(y.path));
          const fmt = (rows: { path: string; added: number | null; removed: number | null }[]): string => rows.map((r) => `${r.path} +${String(r.added)}/-${String(r.removed)}`).join(', ') || 'none';
          agentChecks.push(check('files changed = git diff --numstat', fmt(disk) === fmt(reported), `comparison ${fmt(reported)}; disk ${fmt(disk)}`));
          const sum = (rows: NumstatRow[], k: 'added' | 'removed'): number => rows.reduce((n, r) => n + (r[k] ?? 0), 0);
          agentChecks.push(check('+/- lines = git diff --numstat', a.linesAdded === sum(disk, 'added') && a.linesRemoved === sum(disk, 'removed'), `comparison +${a.linesAdded}/-${a.linesRemoved}; disk +${sum(disk, 'added')}/-${sum(disk, 'removed')}`));
          const notes = readFileSync(join(a.workspace, 'notes.txt'), 'utf8');
          agentChecks.push(check('workspace: file edited, new files', notes.includes(DEFAULTS.newText) && disk.some((r) => r.path === DEFAULTS.createFile), `notes.txt=${JSON.stringify(notes)}; ${disk.map((r) => r.path).join(', ')}`));
          result.diskChanges.push(...disk.map((r) => `${a.index}:${r.path}`));
        }
        const known = expectationsFor(id).known;
        for (const c of agentChecks) {
          if (!c.ok && known[`compare:${c.name}`]) c.known = known[`compare:${c.name}`];
          c.name = `${id}: ${c.name}`;
        }
        checks.push(...agentChecks);
      }
      const source = readFileSync(join(repo, 'notes.txt'), 'utf8');
      const status = git(repo, ['status', '--porcelain']).trim();
      checks.push(check('source folder untouched', source === `${DEFAULTS.oldText}\n` && status === '', `notes.txt=${JSON.stringify(source)}; git status ${JSON.stringify(status)}`));

      const runId = String(comparison['runId']);
      const discard = await runCliArgs({ args: [ctx.cli, 'runs', 'discard', runId, '--json', '--data-dir', dataDir, '--config-dir', join(work, 'config')], env: cliEnv, cwd: repo, killAfterMs: 60_000, eventsFile: join(out, 'discard.jsonl'), stderrFile: join(out, 'discard-stderr.txt') });
      checks.push(exitCheck('runs discard', discard));
      const discarded = discard.events.find((e) => e.type === 'discarded');
      const left = agents.filter((a) => existsSync(a.workspace)).map((a) => a.workspace);
      checks.push(check('runs discard: workspaces removed', discarded !== undefined && left.length === 0 && agents.length > 0, `${JSON.stringify(discarded?.['workspaces'] ?? null)}; still on disk: ${left.join(', ') || 'none'}`));
      const worktrees = git(repo, ['worktree', 'list', '--porcelain']).split('\n').filter((l) => l.startsWith('worktree ')).length;
      checks.push(check('runs discard: worktrees pruned', worktrees === 1, `${worktrees} worktree(s) listed`));
    }
  } catch (err) {
    result.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    checks.push(check('case ran', false, result.error.split('\n')[0]!));
  }
  for (const l of launches) {
    const orphans = await collectOrphans(String(l.env['HOME']));
    result.orphans.push(...orphans.map(describeProcess));
  }
  checks.push(check('no orphan processes', result.orphans.length === 0, result.orphans.length ? result.orphans.join('; ') : 'none left'));
  result.steps = stepsPlayed(ctx.server.records.slice(recordsStart));
  result.status = caseStatus(checks);
  result.durationMs = Date.now() - started;
  writeFileSync(join(out, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
  for (const l of launches) l.dispose();
  return result;
}

interface EntryLine {
  type: string;
  entry?: { kind: string; content?: { type: string; text?: string }[] };
}

/** User messages of a session's transcript (`sessions show ID --json`), as text. */
function userMessages(events: CliEvent[]): string[] {
  return (events as unknown as EntryLine[])
    .filter((e) => e.type === 'entry' && e.entry?.kind === 'user_message')
    .map((e) => (e.entry!.content ?? []).map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join(''));
}

/** `resume-fork`: a turn, then `sessions resume` and `sessions fork` of it through the CLI. */
export async function runResumeFork(ctx: OnceContext): Promise<CaseResult> {
  const started = Date.now();
  const spec = ctx.specs[0]!;
  const out = caseOut(ctx, 'resume-fork');
  const result = emptyResult(spec.id, 'resume-fork', out);
  const checks: Check[] = [];
  const work = mkdtempSync(join(tmpdir(), `acp-real-continue-${spec.id}-`));
  const projectDir = join(work, 'project');
  const dataDir = join(work, 'data');
  const configDir = join(work, 'config');
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(join(projectDir, 'notes.txt'), `${DEFAULTS.oldText}\n`);
  const launch = spec.launch({ modelUrl: ctx.server.url, projectDir });
  const recordsStart = ctx.server.records.length;
  const env = launch.env;
  const cliEnv = { PATH: env['PATH'], LANG: env['LANG'], HOME: env['HOME'], TMPDIR: env['TMPDIR'] };
  const common = ['--json', '--approve', 'all', '--data-dir', dataDir, '--config-dir', configDir];
  const cli = (step: string, args: string[], flags: string[] = common): Promise<CliRunResult> =>
    runCliArgs({ args: [ctx.cli, ...args, ...flags], env: cliEnv, cwd: projectDir, killAfterMs: 200_000, eventsFile: join(out, `${step}.jsonl`), stderrFile: join(out, `${step}-stderr.txt`) });
  const prompts = {
    run: `Please change the greeting in notes.txt. [scenario:edit-file file=${join(projectDir, 'notes.txt')}]`,
    resume: `Now add a file. [scenario:create-file file=${join(projectDir, 'resumed.txt')} content="resumed"]`,
    fork: `Instead add another file. [scenario:create-file file=${join(projectDir, 'forked.txt')} content="forked"]`,
  };
  try {
    const first = await cli('run', ['run', '--agent-cmd', [launch.command, ...launch.args].map(shellQuote).join(' '), '--cwd', projectDir, '--prompt', prompts.run, '--timeout', '150', ...envFlags(env)]);
    checks.push(exitCheck('run', first));
    const init = first.events.find((e) => e.type === 'initialized');
    result.agentInfo = init?.['agentInfo'] ?? null;
    const caps = (init?.['agentCapabilities'] as { sessionCapabilities?: Record<string, unknown>; loadSession?: boolean } | undefined) ?? {};
    checks.push(check('initialize advertises resume and fork', caps.sessionCapabilities?.['resume'] !== undefined && caps.sessionCapabilities?.['fork'] !== undefined, `sessionCapabilities ${JSON.stringify(Object.keys(caps.sessionCapabilities ?? {}))}, loadSession ${String(caps.loadSession)}`));
    const s1 = first.events.find((e) => e.type === 'summary');
    checks.push(check('run: turn ends end_turn', s1?.['stopReason'] === 'end_turn', `stopReason ${String(s1?.['stopReason'])}`));
    checks.push(check('run: file edited', readFileSync(join(projectDir, 'notes.txt'), 'utf8').includes(DEFAULTS.newText), 'notes.txt'));
    const firstId = s1?.['id'] ? String(s1['id']) : undefined;
    if (!firstId) throw new Error('the first run opened no session');

    const resumed = await cli('resume', ['sessions', 'resume', firstId, '--prompt', prompts.resume, ...envFlags(env)]);
    checks.push(exitCheck('resume', resumed));
    const s2 = resumed.events[resumed.events.length - 1];
    checks.push(check('resume: summary last, resumedBy resume|load', s2?.type === 'summary' && (s2['resumedBy'] === 'resume' || s2['resumedBy'] === 'load'), `resumedBy ${String(s2?.['resumedBy'])}`));
    checks.push(check('resume: parent is the first session', s2?.['parent'] === firstId && s2?.['id'] !== firstId, `parent ${String(s2?.['parent'])}, id ${String(s2?.['id'])}`));
    checks.push(check('resume: turn ends end_turn', s2?.['stopReason'] === 'end_turn', `stopReason ${String(s2?.['stopReason'])}`));
    checks.push(check('resume: agent session kept', s2?.['agentSessionId'] === s1?.['agentSessionId'], `${String(s1?.['agentSessionId'])} -> ${String(s2?.['agentSessionId'])}`));
    checks.push(check('resume: file created', readIf(join(projectDir, 'resumed.txt'))?.trim() === 'resumed', 'resumed.txt'));
    const resumedId = s2?.['id'] ? String(s2['id']) : undefined;

    const forked = await cli('fork', ['sessions', 'fork', resumedId ?? firstId, '--prompt', prompts.fork, ...envFlags(env)]);
    checks.push(exitCheck('fork', forked));
    const s3 = forked.events[forked.events.length - 1];
    checks.push(check('fork: summary last, forkedBy fork', s3?.type === 'summary' && s3['forkedBy'] === 'fork', `forkedBy ${String(s3?.['forkedBy'])}`));
    checks.push(check('fork: parent is the resumed session', s3?.['parent'] === (resumedId ?? firstId), `parent ${String(s3?.['parent'])}`));
    checks.push(check('fork: turn ends end_turn', s3?.['stopReason'] === 'end_turn', `stopReason ${String(s3?.['stopReason'])}`));
    checks.push(check('fork: new agent session', s3?.['agentSessionId'] !== undefined && s3?.['agentSessionId'] !== s1?.['agentSessionId'], `${String(s3?.['agentSessionId'])}`));
    checks.push(check('fork: file created', readIf(join(projectDir, 'forked.txt'))?.trim() === 'forked', 'forked.txt'));
    result.toolCalls = [s1, s2, s3].reduce((n, s) => n + Number(s?.['toolCalls'] ?? 0), 0);
    result.permissions = [s1, s2, s3].reduce((n, s) => n + Number(s?.['permissionRequests'] ?? 0), 0);
    result.stopReason = [s1, s2, s3].map((s) => String(s?.['stopReason'])).join(',');

    // Transcripts: every user message once; each continuation's own prompt exactly once.
    const showFlags = ['--json', '--data-dir', dataDir, '--config-dir', configDir];
    for (const [step, id, prompt] of [
      ['resume', resumedId, prompts.resume],
      ['fork', s3?.['id'] ? String(s3['id']) : undefined, prompts.fork],
    ] as const) {
      if (!id) continue;
      const show = await cli(`show-${step}`, ['sessions', 'show', id], showFlags);
      const users = userMessages(show.events);
      const dupes = users.filter((u, i) => users.indexOf(u) !== i);
      checks.push(check(`${step}: transcript without duplicate user messages`, show.exitCode === 0 && users.length > 0 && dupes.length === 0, `${users.length} user message(s)${dupes.length ? `; twice: ${dupes.map((d) => JSON.stringify(d.slice(0, 60))).join(', ')}` : ''}`));
      checks.push(check(`${step}: its prompt in the transcript once`, users.filter((u) => u.includes(prompt)).length === 1, users.map((u) => JSON.stringify(u.slice(0, 40))).join(', ')));
    }
    const tree = await cli('tree', ['sessions', 'tree', firstId], showFlags);
    const treeJson = (tree.events[0] ?? (tree.badLines.length ? JSON.parse(tree.badLines.join('\n')) : null)) as { root?: { id: string; children?: { id: string; by?: string; children?: { id: string; by?: string }[] }[] } } | null;
    const child = treeJson?.root?.children?.[0];
    checks.push(check('sessions tree: run → resume → fork', treeJson?.root?.id === firstId && child?.id === resumedId && child?.children?.[0]?.id === s3?.['id'], `${treeJson?.root?.id ?? '?'} → ${child?.id ?? '?'} (${child?.by ?? '?'}) → ${child?.children?.[0]?.id ?? '?'} (${child?.children?.[0]?.by ?? '?'})`));
  } catch (err) {
    result.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    checks.push(check('case ran', false, result.error.split('\n')[0]!));
  }
  const orphans = await collectOrphans(String(env['HOME']));
  result.orphans = orphans.map(describeProcess);
  checks.push(check('no orphan processes', orphans.length === 0, orphans.length ? result.orphans.join('; ') : 'none left'));
  const known = expectationsFor(spec.id).known;
  for (const c of checks) if (!c.ok && known[`resume-fork:${c.name}`]) c.known = known[`resume-fork:${c.name}`];
  result.checks.push(...checks);
  result.diskChanges = ['resumed.txt', 'forked.txt'].filter((f) => existsSync(join(projectDir, f))).map((f) => `+${f}`);
  if (readIf(join(projectDir, 'notes.txt'))?.includes(DEFAULTS.newText)) result.diskChanges.unshift('~notes.txt');
  result.steps = stepsPlayed(ctx.server.records.slice(recordsStart));
  result.status = caseStatus(result.checks);
  result.durationMs = Date.now() - started;
  writeFileSync(join(out, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
  launch.dispose();
  return result;
}
