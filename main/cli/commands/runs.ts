/**
 * `acp-workbench runs`: the compare runs made by `run --isolate` (and the app) — list them, show
 * a comparison (Markdown, or JSON with the patches), promote one agent's changes into the project
 * folder, discard the workspaces.
 */
import { counted } from '../../../common/text/counted';
import { buildComparison, comparisonMarkdown } from '../../core/workspace/comparison';
import { readPatches } from '../../core/workspace/compare-runs';
import { promote } from '../../core/workspace/promote';
import { RunError, RunStore } from '../../core/workspace/run-store';
import type { RunRecord } from '../../core/workspace/run-types';
import { discardRun } from '../../core/workspace/workspaces';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';
import { runSubcommand } from '../subcommands';

const USAGE = `Usage: acp-workbench runs [list] [--leftovers] [--json]
       acp-workbench runs show RUN [--json]
       acp-workbench runs promote RUN AGENT_INDEX [--files PATH...] [--json]
       acp-workbench runs discard RUN [--json]

Compare runs: one prompt sent to several agents, each in its own workspace
(\`acp-workbench run --isolate\`). RUN is a run id or an unambiguous start of one.

  list      every run, newest first: status, agents, project folder, whether its workspaces
            are still on disk (--leftovers: only runs neither promoted nor discarded that still
            have workspaces)
  show      the comparison as Markdown, with each agent's diff (--json: one "comparison"
            object, with each agent's patch)
  promote   apply agent AGENT_INDEX's changes (numbered from 0, as in the comparison) to the
            project folder — only the files given with --files (paths relative to the workspace
            root, as the comparison lists them). Everything is checked first: when a change does
            not apply, nothing is written, the conflicting paths are listed and it exits 1
  discard   remove the run's workspaces (the comparison and the diffs are kept)`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n')}\n`;
}

function runLine(store: RunStore, r: RunRecord) {
  return {
    type: 'run' as const,
    runId: r.id,
    createdAt: r.createdAt,
    status: r.status,
    isolation: r.source.isolation,
    project: r.source.cwd,
    agents: r.agents.map((a) => ({ index: a.index, label: a.label, status: a.status, files: a.files.length })),
    workspaces: store.hasWorkspaces(r),
    prompt: firstText(r),
  };
}

function firstText(r: RunRecord): string {
  const block = (r.prompts[0]?.prompt ?? []).find((b) => (b as { type?: string }).type === 'text') as { text?: string } | undefined;
  return block?.text ?? '';
}

async function list(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, { leftovers: { type: 'boolean' } }, io.env);
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const store = new RunStore(args.paths.dataDir);
  const runs = args.values.leftovers ? await store.leftovers() : await store.list();
  if (args.values.json) {
    for (const r of runs) io.stdout(`${JSON.stringify(runLine(store, r))}\n`);
    return ExitCode.ok;
  }
  if (runs.length === 0) {
    io.stderr(args.values.leftovers ? 'No leftover workspaces.\n' : `No compare runs in ${store.runsDir} (make one with \`acp-workbench run --isolate\`).\n`);
    return ExitCode.ok;
  }
  const rows = [['RUN', 'CREATED', 'STATUS', 'WORKSPACES', 'AGENTS', 'PROJECT']];
  for (const r of runs) {
    const line = runLine(store, r);
    rows.push([r.id, r.createdAt.replace('T', ' ').slice(0, 19), r.status, line.workspaces ? 'yes' : 'removed', r.agents.map((a) => `${a.index}:${a.label}`).join(' '), r.source.cwd]);
  }
  io.stdout(table(rows));
  return ExitCode.ok;
}

function oneRun(argv: string[], io: CliIo, extra: Parameters<typeof parseCommandArgs>[1] = {}) {
  const args = parseCommandArgs(argv, extra, io.env);
  const [run, ...rest] = args.positionals;
  if (!run) throw new UsageError('name a run: RUN (see `acp-workbench runs list`)');
  return { args, run, rest, store: new RunStore(args.paths.dataDir) };
}

async function show(argv: string[], io: CliIo): Promise<ExitCode> {
  const { args, run, rest, store } = oneRun(argv, io);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const record = await store.read(await store.resolveId(run));
  const comparison = buildComparison(record, await readPatches(record));
  io.stdout(args.values.json ? `${JSON.stringify(comparison)}\n` : comparisonMarkdown(comparison));
  return ExitCode.ok;
}

async function promoteCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const { args, run, rest, store } = oneRun(argv, io, { files: { type: 'string', multiple: true } });
  const [indexText, ...more] = rest;
  if (indexText === undefined) throw new UsageError('name the agent to promote: AGENT_INDEX (from 0, as `runs show` numbers them)');
  const index = Number(indexText);
  if (!Number.isInteger(index) || index < 0) throw new UsageError(`AGENT_INDEX must be a number from 0, got "${indexText}"`);
  const given = (args.values as { files?: string[] }).files;
  if (more.length && !given) throw new UsageError(`unexpected argument "${more[0]}" (files to promote go after --files)`);
  const files = given ? [...given, ...more] : undefined;
  const id = await store.resolveId(run);
  const record = await store.read(id);
  const label = record.agents[index]?.label ?? String(index);
  const result = await promote(store, id, files ? files.map((path) => ({ agentIndex: index, path: path.replace(/\\/g, '/').replace(/^\.\//, '') })) : index);
  if (args.values.json) {
    io.stdout(`${JSON.stringify(result.applied ? { type: 'promoted', runId: id, agent: { index, label }, paths: result.paths } : { type: 'promote_refused', runId: id, agent: { index, label }, conflicts: result.conflicts })}\n`);
  } else if (result.applied) {
    io.stdout(`promoted ${counted(result.paths.length, 'file')} from ${label} into ${record.source.root}:\n`);
    for (const p of result.paths) io.stdout(`  ${p}\n`);
  } else {
    io.stderr(`acp-workbench runs promote: refused — these changes of ${label} do not apply to ${record.source.root}; nothing was written:\n`);
    for (const c of result.conflicts) io.stderr(`  ${c.path}: ${c.reason}\n`);
  }
  return result.applied ? ExitCode.ok : ExitCode.checkFailed;
}

async function discard(argv: string[], io: CliIo): Promise<ExitCode> {
  const { args, run, rest, store } = oneRun(argv, io);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const id = await store.resolveId(run);
  const record = await discardRun(store, id);
  const workspaces = record.agents.map((a) => a.workspace);
  if (args.values.json) io.stdout(`${JSON.stringify({ type: 'discarded', runId: id, workspaces })}\n`);
  else io.stdout(`discarded run ${id}: removed ${counted(workspaces.length, 'workspace')} (the comparison is kept)\n`);
  return ExitCode.ok;
}

const dispatch = (argv: string[], io: CliIo): Promise<ExitCode> =>
  runSubcommand(argv, io, { list, show, promote: promoteCommand, discard }, 'list');

export const runsCommand: CliCommand = {
  name: 'runs',
  usage: USAGE,
  async run(argv, io) {
    try {
      return await dispatch(argv, io);
    } catch (err) {
      if (!(err instanceof RunError)) throw err;
      io.stderr(`acp-workbench runs: ${err.message}\n`);
      return err.code === 'conflict' ? ExitCode.checkFailed : ExitCode.usage;
    }
  },
};
