/**
 * The suite's cases, run for every real agent:
 *  - `full`: one turn with a plan, an edit, a new file and a shell command, permissions answered
 *    by `--approve all` (acp-workbench run --json);
 *  - `reject`: an edit whose permission `--approve reads` rejects: the file must not change;
 *  - `cancel-turn`: `--cancel-after` while the agent streams: the turn ends `cancelled`;
 *  - `cancel-permission`: session/cancel while a permission request waits for a person (core API,
 *    see core-run.ts): the turn ends `cancelled` and the request is answered `cancelled`.
 * Every case also checks that the trace rebuilds to what the live run reported and that no
 * process of the agent is left behind.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceRecord } from '../../../common/trace/records';
import type { PermissionRecord } from '../../../common/transcript/model';
import { filesChanged } from '../../../main/core/sessions/session-stats';
import type { AgentSpec } from '../agents';
import type { ModelServer } from '../model-server/server';
import { DEFAULTS } from '../model-server/scenarios';
import type { ReplyRecord } from '../model-server/types';
import { changedFiles, snapshot, stepsPlayed } from '../smoke-checks';
import { caseStatus, check, type CaseStatus, type Check } from './checks';
import { runCli, type CliEvent, type CliRunResult } from './cli-run';
import { conformanceReport, engineFindingIds } from './conformance';
import { cancelDuringPermission } from './core-run';
import { clientCalls, observeFindings, type Finding } from './findings';
import { expectationsFor } from './expectations';
import { collectOrphans, describeProcess } from './processes';
import { compareTranscripts, compareWithCli, entries, rebuildRun, toolCallEntries, type RebuiltRun } from './trace-check';

export const CASES = ['full', 'reject', 'cancel-turn', 'cancel-permission'] as const;
export type CaseName = (typeof CASES)[number];

/** Cases that run once, not per agent (once-cases.ts). */
export const ONCE_CASES = ['compare', 'resume-fork'] as const;
export type OnceCaseName = (typeof ONCE_CASES)[number];

export interface CaseResult {
  agent: string;
  case: CaseName | OnceCaseName;
  status: CaseStatus;
  checks: Check[];
  durationMs: number;
  /** What the agent said about itself in `initialize`. */
  agentInfo?: unknown;
  stopReason?: string | null;
  toolCalls: number;
  permissions: number;
  /** Files changed on disk in the project (`~notes.txt`, `+created.txt`). */
  diskChanges: string[];
  /** Files the workbench reported as changed (summary.filesChanged / filesChanged(transcript)). */
  reportedFiles: string[];
  steps: string;
  findings: Finding[];
  /** Rule ids of the conformance engine's findings on the run's trace (`conformance:<rule>`). */
  conformance?: string[];
  clientCalls: Record<string, number>;
  permissionsSeen: string[];
  orphans: string[];
  error?: string;
  out: string;
}

export interface CaseContext {
  spec: AgentSpec;
  server: ModelServer;
  cli: string;
  out: string;
}

interface Workspace {
  projectDir: string;
  dataDir: string;
  configDir: string;
  caseOut: string;
  before: Map<string, string>;
  recordsStart: number;
}

function workspace(ctx: CaseContext, name: CaseName): Workspace {
  const projectDir = mkdtempSync(join(tmpdir(), `acp-real-project-${ctx.spec.id}-`));
  writeFileSync(join(projectDir, 'notes.txt'), `${DEFAULTS.oldText}\n`);
  const work = mkdtempSync(join(tmpdir(), `acp-real-workbench-${ctx.spec.id}-`));
  const caseOut = join(ctx.out, ctx.spec.id, name);
  rmSync(caseOut, { recursive: true, force: true });
  mkdirSync(caseOut, { recursive: true });
  return { projectDir, dataDir: join(work, 'data'), configDir: join(work, 'config'), caseOut, before: snapshot(projectDir), recordsStart: ctx.server.records.length };
}

function promptFor(name: CaseName, projectDir: string): string {
  const notes = join(projectDir, 'notes.txt');
  switch (name) {
    case 'full':
      return 'Plan the work, change the greeting in notes.txt, add a new file and run a command. [scenario:full]';
    case 'reject':
    case 'cancel-permission':
      return `Please change the greeting in notes.txt. [scenario:edit-file file=${notes}]`;
    case 'cancel-turn':
      return 'Tell me a long story. [scenario:slow]';
  }
}

const CANCEL_AFTER_MS = 6000;

export async function runCase(ctx: CaseContext, name: CaseName): Promise<CaseResult> {
  const started = Date.now();
  const ws = workspace(ctx, name);
  const launch = ctx.spec.launch({ modelUrl: ctx.server.url, projectDir: ws.projectDir });
  const result: CaseResult = {
    agent: ctx.spec.id,
    case: name,
    status: 'failed',
    checks: [],
    durationMs: 0,
    toolCalls: 0,
    permissions: 0,
    diskChanges: [],
    reportedFiles: [],
    steps: '',
    findings: [],
    clientCalls: {},
    permissionsSeen: [],
    orphans: [],
    out: ws.caseOut,
  };
  const checks = result.checks;
  let rebuilt: RebuiltRun | undefined;
  let sessionId: string | undefined;
  try {
    if (name === 'cancel-permission') {
      const r = await cancelDuringPermission({ launch, label: ctx.spec.id, projectDir: ws.projectDir, dataDir: ws.dataDir, prompt: promptFor(name, ws.projectDir) });
      result.agentInfo = r.agentInfo;
      if (r.error) result.error = r.error;
      sessionId = r.sessionId;
      checks.push(check('permission request pending', r.pending !== undefined, r.pending ? `"${r.pending.params.toolCall.title ?? r.pending.params.toolCall.toolCallId}" after ${r.askedAfterMs} ms` : (r.error ?? 'none')));
      checks.push(check('turn ends cancelled', r.response?.stopReason === 'cancelled', `stopReason ${String(r.response?.stopReason)}${r.cancelToAnswerMs !== undefined ? `, ${r.cancelToAnswerMs} ms after session/cancel` : ''}`));
      checks.push(check('pending request answered cancelled', r.answeredCancelled >= 1, `${r.answeredCancelled} request(s) answered cancelled by session.cancel()`));
      if (r.tracePath && sessionId) {
        copyFileSync(r.tracePath, join(ws.caseOut, 'trace.jsonl'));
        rebuilt = await rebuildRun(r.tracePath, sessionId);
        checks.push(...cancelledPermissionOnWire(rebuilt.records, r.pending?.key));
        const perms = toolCallEntries(rebuilt.transcript).flatMap((t) => t.permissions);
        checks.push(check('transcript: permission cancelled', perms.some((p) => p.status === 'cancelled'), perms.map(describePermission).join(', ') || 'none'));
        if (r.liveTranscript) checks.push(compareTranscripts(r.liveTranscript, rebuilt.transcript));
        result.stopReason = rebuilt.figures.stopReason;
        result.toolCalls = rebuilt.figures.toolCalls;
        result.permissions = rebuilt.figures.permissionRequests;
        result.reportedFiles = filesChanged(rebuilt.transcript);
      }
      const after = snapshot(ws.projectDir);
      checks.push(check('file unchanged', after.get('notes.txt') === ws.before.get('notes.txt'), `notes.txt=${JSON.stringify(after.get('notes.txt'))}`));
    } else {
      const run = await runCli({
        cli: ctx.cli,
        launch,
        projectDir: ws.projectDir,
        dataDir: ws.dataDir,
        configDir: ws.configDir,
        prompt: promptFor(name, ws.projectDir),
        approve: name === 'reject' ? 'reads' : 'all',
        ...(ctx.spec.withhold ? { withhold: ctx.spec.withhold.capabilities } : {}),
        ...(name === 'cancel-turn' ? { cancelAfterMs: CANCEL_AFTER_MS } : {}),
        timeoutS: 150,
        killAfterMs: 200_000,
        eventsFile: join(ws.caseOut, 'events.jsonl'),
        stderrFile: join(ws.caseOut, 'cli-stderr.txt'),
      });
      const summary = run.events.find((e) => e.type === 'summary');
      const initialized = run.events.find((e) => e.type === 'initialized');
      result.agentInfo = initialized?.['agentInfo'] ?? null;
      checks.push(check('cli exit 0', run.exitCode === 0 && !run.killed, `exit ${String(run.exitCode)}${run.signal ? ` ${run.signal}` : ''}${run.killed ? ' (killed: hung)' : ''}; ${errorOf(run)}`));
      checks.push(check('stdout is JSON lines only', run.badLines.length === 0, run.badLines.length ? run.badLines[0]!.slice(0, 120) : `${run.events.length} events`));
      checks.push(check('summary event', summary !== undefined, summary ? `error ${String(summary['error'])}` : 'missing'));
      if (summary) {
        sessionId = String(summary['id']);
        result.stopReason = (summary['stopReason'] as string | null) ?? null;
        result.toolCalls = Number(summary['toolCalls'] ?? 0);
        result.permissions = Number(summary['permissionRequests'] ?? 0);
        result.reportedFiles = (summary['filesChanged'] as string[] | undefined) ?? [];
        const trace = summary['trace'] as string | null;
        if (trace) {
          copyFileSync(trace, join(ws.caseOut, 'trace.jsonl'));
          rebuilt = await rebuildRun(trace, sessionId);
          checks.push(...compareWithCli(rebuilt, summary, run.events));
        } else checks.push(check('trace written', false, 'summary.trace is null'));
      }
      const after = snapshot(ws.projectDir);
      const records = ctx.server.records.slice(ws.recordsStart);
      result.steps = stepsPlayed(records);
      if (name === 'full') checks.push(...fullChecks(ctx.spec, run.events, summary, rebuilt, ws, after, records));
      if (name === 'reject') checks.push(...rejectChecks(run.events, summary, rebuilt, ws, after));
      if (name === 'cancel-turn') checks.push(...cancelTurnChecks(run.events, summary));
    }
  } catch (err) {
    result.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    checks.push(check('case ran', false, result.error.split('\n')[0]!));
  }
  // No process of this run may outlive it (its HOME is unique to the run).
  const orphans = await collectOrphans(String(launch.env['HOME']));
  result.orphans = orphans.map(describeProcess);
  checks.push(check('no orphan processes', orphans.length === 0, orphans.length ? result.orphans.join('; ') : 'none left'));

  result.diskChanges = changedFiles(ws.before, snapshot(ws.projectDir));
  if (!result.steps) result.steps = stepsPlayed(ctx.server.records.slice(ws.recordsStart));
  if (rebuilt && sessionId) {
    result.findings = observeFindings(rebuilt, { cancelled: name.startsWith('cancel') });
    result.clientCalls = clientCalls(rebuilt.records);
    result.permissionsSeen = toolCallEntries(rebuilt.transcript).flatMap((t) => t.permissions.map((p) => `${t.title} [${p.options.map((o) => `${o.optionId}:${o.kind}`).join(',')}] -> ${describePermission(p)}`));
    const report = conformanceReport(rebuilt.trace, sessionId, result.findings);
    result.conformance = engineFindingIds(report);
    writeFileSync(join(ws.caseOut, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  }
  const known = expectationsFor(ctx.spec.id).known;
  for (const c of checks) if (!c.ok && known[`${name}:${c.name}`]) c.known = known[`${name}:${c.name}`];
  result.status = caseStatus(checks);
  result.durationMs = Date.now() - started;
  writeFileSync(join(ws.caseOut, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  rmSync(ws.projectDir, { recursive: true, force: true });
  rmSync(join(ws.dataDir, '..'), { recursive: true, force: true });
  launch.dispose();
  return result;
}

function errorOf(run: CliRunResult): string {
  const errors = run.events.filter((e) => e.type === 'error').map((e) => String(e['message']));
  if (errors.length) return errors.join(' | ').slice(0, 300);
  const tail = run.stderr.trim().split('\n').slice(-2).join(' | ');
  return tail ? `stderr: ${tail.slice(0, 300)}` : 'no error';
}

const describePermission = (p: PermissionRecord): string => `${p.status}${p.optionId ? `:${p.optionId}` : ''}${p.optionKind ? `(${p.optionKind})` : ''}${p.decidedBy ? ` by ${p.decidedBy}` : ''}`;

function fullChecks(
  spec: AgentSpec,
  events: CliEvent[],
  summary: CliEvent | undefined,
  rebuilt: RebuiltRun | undefined,
  ws: Workspace,
  after: Map<string, string>,
  records: ReplyRecord[],
): Check[] {
  const out: Check[] = [];
  const expect = expectationsFor(spec.id);
  out.push(check('turn ends end_turn', summary?.['stopReason'] === 'end_turn', `stopReason ${String(summary?.['stopReason'])}`));
  const main = records.filter((r) => r.action !== 'side-request');
  const last = main[main.length - 1];
  out.push(check('scripted steps all played', main.some((r) => r.action === 'shell') && last?.action === 'text' && !last.note, stepsPlayed(records) || 'no model requests'));

  const transcript = rebuilt?.transcript;
  const list = transcript ? entries(transcript) : [];
  const tools = transcript ? toolCallEntries(transcript) : [];
  const plans = list.filter((e) => e.kind === 'plan').length;
  const todoTool = tools.find((t) => /todo|plan|task/i.test(`${t.title} ${t.name ?? ''} ${JSON.stringify(t.rawInput ?? '')}`));
  if (expect.plan === 'plan-update') out.push(check('plan: plan update', plans > 0, `${plans} plan update(s)`));
  else out.push(check('plan: todo tool call', todoTool !== undefined, todoTool ? `"${todoTool.title}" (${todoTool.toolKind}, ${todoTool.status}); ${plans} plan update(s)` : `no todo tool call; ${plans} plan update(s)`));

  const permissionEvents = events.filter((e) => e.type === 'permission');
  const perms = tools.flatMap((t) => t.permissions);
  out.push(check('permission requests answered by policy', permissionEvents.length > 0 && permissionEvents.every((e) => e['by'] === 'policy'), `${permissionEvents.length} answered by ${[...new Set(permissionEvents.map((e) => String(e['by'])))].join(', ') || '-'}`));
  out.push(
    check(
      'permissions: an allow option chosen',
      perms.length > 0 && perms.every((p) => p.status === 'selected' && (p.optionKind === 'allow_once' || p.optionKind === 'allow_always')),
      perms.map(describePermission).join(', ') || 'none',
    ),
  );

  const notes = after.get('notes.txt') ?? '';
  out.push(check('file edited', notes.includes(DEFAULTS.newText) && !notes.includes(DEFAULTS.oldText), `notes.txt=${JSON.stringify(notes)}`));
  const created = after.get(DEFAULTS.createFile);
  out.push(check('new file on disk', created?.trim() === DEFAULTS.createContent.trim(), `${DEFAULTS.createFile}=${JSON.stringify(created ?? null)}`));
  const shellFile = after.get(DEFAULTS.shellFile);
  const execute = tools.filter((t) => t.toolKind === 'execute');
  out.push(check('shell command ran', shellFile?.trim() === 'acp-shell-ok', `${DEFAULTS.shellFile}=${JSON.stringify(shellFile ?? null)}; execute tool calls: ${execute.map((t) => `${t.title} (${t.status})`).join(', ') || 'none'}`));
  out.push(check('shell tool call completed', execute.some((t) => t.status === 'completed'), execute.map((t) => `${t.title}: ${t.status}`).join(', ') || 'no execute tool call'));

  const reported = (summary?.['filesChanged'] as string[] | undefined) ?? [];
  const onDisk = changedFiles(ws.before, after).map((f) => join(ws.projectDir, f.slice(1)));
  const false_ = reported.filter((p) => !onDisk.includes(p));
  out.push(check('reported files really changed', false_.length === 0, `reported ${JSON.stringify(reported.map((p) => p.replace(`${ws.projectDir}/`, '')))}; on disk ${JSON.stringify(changedFiles(ws.before, after))}`));
  return out;
}

function rejectChecks(events: CliEvent[], summary: CliEvent | undefined, rebuilt: RebuiltRun | undefined, ws: Workspace, after: Map<string, string>): Check[] {
  const out: Check[] = [];
  out.push(check('turn ends end_turn', summary?.['stopReason'] === 'end_turn', `stopReason ${String(summary?.['stopReason'])}`));
  const perms = rebuilt ? toolCallEntries(rebuilt.transcript).flatMap((t) => t.permissions) : [];
  const permissionEvents = events.filter((e) => e.type === 'permission');
  out.push(check('permission request answered by policy', permissionEvents.length > 0 && permissionEvents.every((e) => e['by'] === 'policy'), `${permissionEvents.length} answered by ${[...new Set(permissionEvents.map((e) => String(e['by'])))].join(', ') || '-'}`));
  out.push(
    check(
      'permissions: a reject option chosen',
      perms.length > 0 && perms.every((p) => p.status === 'selected' && (p.optionKind === 'reject_once' || p.optionKind === 'reject_always')),
      perms.map(describePermission).join(', ') || 'none',
    ),
  );
  out.push(check('file unchanged', after.get('notes.txt') === ws.before.get('notes.txt'), `notes.txt=${JSON.stringify(after.get('notes.txt'))}`));
  return out;
}

function cancelTurnChecks(events: CliEvent[], summary: CliEvent | undefined): Check[] {
  const out: Check[] = [];
  out.push(check('turn ends cancelled', summary?.['stopReason'] === 'cancelled', `stopReason ${String(summary?.['stopReason'])}`));
  const cancel = events.find((e) => e.type === 'cancel');
  out.push(check('cancel sent', cancel?.['by'] === 'cancel-after', cancel ? `by ${String(cancel['by'])}` : 'no cancel event'));
  const text = events
    .filter((e) => e.type === 'update')
    .map((e) => e['update'] as { sessionUpdate?: string; content?: { text?: string } })
    .filter((u) => u?.sessionUpdate === 'agent_message_chunk')
    .map((u) => u.content?.text ?? '')
    .join('');
  const words = (text.match(/word\d+/g) ?? []).length;
  out.push(check('cancelled mid-stream', words > 0 && !text.includes('word300'), `${words} streamed word(s) before the end`));
  const duration = Number(summary?.['durationMs'] ?? NaN);
  out.push(check('turn ends soon after the cancel', duration < CANCEL_AFTER_MS + 10_000, `turn took ${duration} ms (cancel at ${CANCEL_AFTER_MS} ms)`));
  return out;
}

/** Our answer to the agent's permission request, on the wire: `{ outcome: { outcome: "cancelled" } }`. */
function cancelledPermissionOnWire(records: TraceRecord[], queueKey: string | undefined): Check[] {
  const asked = records.filter((r) => r.kind === 'wire' && r.dir === 'in' && r.msg['method'] === 'session/request_permission');
  const out: Check[] = [];
  const answers = asked.map((req) => {
    const id = (req as { msg: { id?: unknown } }).msg.id;
    const answer = records.find((r) => r.kind === 'wire' && r.dir === 'out' && r.msg['method'] === undefined && r.msg['id'] === id);
    const outcome = (answer as { msg?: { result?: { outcome?: { outcome?: string } } } } | undefined)?.msg?.result?.outcome?.outcome;
    return { id, outcome };
  });
  out.push(
    check(
      'wire: request answered cancelled',
      answers.length > 0 && answers.some((a) => a.outcome === 'cancelled'),
      answers.map((a) => `${JSON.stringify(a.id)} -> ${String(a.outcome)}`).join(', ') || `no session/request_permission in the trace (queue key ${String(queueKey)})`,
    ),
  );
  const decided = records.filter((r) => r.kind === 'permission-decided');
  out.push(check('trace: permission-decided cancelled', decided.some((r) => r.kind === 'permission-decided' && r.outcome === 'cancelled'), decided.map((r) => (r.kind === 'permission-decided' ? `${r.outcome} by ${r.by}` : '')).join(', ') || 'none'));
  return out;
}
