/**
 * The comparison of a run's agents — figures, files changed with +/− lines, files several agents
 * changed differently, verification results — built from the run record alone (pure), and its
 * Markdown export. The JSON export is the Comparison object itself, with patches when asked.
 */
import type { ComparedAgent, Comparison, DivergentFile, RunRecord } from './run-types';
import { codeBlock } from '../../../common/text/markdown-fence';

export function buildComparison(run: RunRecord, patches?: ReadonlyMap<number, string>): Comparison {
  const agents: ComparedAgent[] = run.agents.map((a) => {
    const f = a.figures;
    return {
      index: a.index,
      label: a.label,
      agentId: a.agentId,
      status: a.status,
      error: a.error,
      sessionId: a.sessionId,
      trace: a.trace,
      workspace: a.workspace,
      cwd: a.cwd,
      stopReason: f?.stopReason ?? null,
      turns: f?.turns ?? 0,
      updates: f?.updates ?? 0,
      firstUpdateMs: f?.firstUpdateMs ?? null,
      durationMs: f?.durationMs ?? null,
      permissionWaitMs: f?.permissionWaitMs ?? 0,
      workingMs: workingMs(f?.durationMs ?? null, f?.permissionWaitMs ?? 0),
      toolCalls: f?.toolCalls ?? 0,
      toolCallsByKind: f?.toolCallsByKind ?? {},
      permissionRequests: f?.permissionRequests ?? 0,
      usage: f?.usage ?? null,
      lastAnswer: f?.lastAnswer ?? null,
      filesChanged: a.files,
      linesAdded: a.files.reduce((n, x) => n + (x.added ?? 0), 0),
      linesRemoved: a.files.reduce((n, x) => n + (x.removed ?? 0), 0),
      setup: a.setup,
      verify: a.verify,
      patchFile: a.patchFile,
      ...(patches?.has(a.index) ? { patch: patches.get(a.index)! } : {}),
    };
  });
  return {
    type: 'comparison',
    runId: run.id,
    status: run.status,
    createdAt: run.createdAt,
    source: run.source,
    base: run.base,
    prompt: run.prompts[0]?.prompt ?? [],
    verifyCommand: run.verifyCommand,
    agents,
    divergentFiles: divergentFiles(run),
  };
}

/** Paths changed by two or more agents whose results differ (different contents, or one deleted it). */
export function divergentFiles(run: RunRecord): DivergentFile[] {
  const byPath = new Map<string, DivergentFile['agents']>();
  for (const a of run.agents) {
    for (const f of a.files) {
      let list = byPath.get(f.path);
      if (!list) byPath.set(f.path, (list = []));
      list.push({ index: a.index, status: f.status, newId: f.newId });
    }
  }
  const out: DivergentFile[] = [];
  for (const [path, agents] of byPath) {
    if (agents.length < 2) continue;
    if (new Set(agents.map((x) => `${x.newId}`)).size > 1) out.push({ path, agents });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function usageText(u: Record<string, unknown> | null): string {
  if (!u) return '—';
  const parts: string[] = [];
  const tokens = u.totalTokens ?? u.used;
  if (typeof tokens === 'number') parts.push(`${tokens} tokens`);
  const cost = u.cost as { amount?: unknown; currency?: unknown } | undefined;
  if (cost && typeof cost.amount === 'number') parts.push(`${cost.amount} ${typeof cost.currency === 'string' ? cost.currency : ''}`.trim());
  return parts.join(', ') || '—';
}

function promptText(prompt: unknown[]): string {
  return prompt
    .map((b) => {
      const block = b as { type?: string; text?: string; resource?: { uri?: string }; uri?: string };
      if (block.type === 'text') return block.text ?? '';
      if (block.type === 'resource') return `[attachment ${block.resource?.uri ?? ''}]`;
      if (block.type === 'resource_link') return `[link ${block.uri ?? ''}]`;
      return `[${block.type ?? 'content'}]`;
    })
    .join('\n');
}

/** The comparison as a Markdown document (with each agent's diff when `patch` is filled in). */
export function comparisonMarkdown(c: Comparison): string {
  const lines: string[] = [];
  lines.push(`# Compare run ${c.runId}`, '');
  lines.push(`- Project: \`${c.source.cwd}\` (${c.source.isolation === 'worktree' ? `git worktrees of snapshot ${c.base.slice(0, 12)}${c.source.branch ? ` on ${c.source.branch}` : ''}` : 'copies of the folder'})`);
  lines.push(`- Started: ${c.createdAt}; status: ${c.status}`);
  if (c.verifyCommand) lines.push(`- Verification: \`${c.verifyCommand}\``);
  const prompt = promptText(c.prompt);
  lines.push('', '## Prompt', '', ...codeBlock(prompt, 'text'), '');
  lines.push('## Agents', '');
  lines.push('| # | agent | stop reason | first update | duration | working | waiting for permission | tool calls | permission requests | tokens / cost | files | +/− | verification |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const a of c.agents) {
    const kinds = Object.entries(a.toolCallsByKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const verify = a.verify ? (a.verify.exitCode === 0 ? 'passed' : a.verify.timedOut ? 'timed out' : `failed (exit ${a.verify.exitCode ?? a.verify.signal})`) : '—';
    lines.push(
      `| ${a.index} | ${cell(a.label)} | ${a.stopReason ?? (a.error ? 'error' : '—')} | ${ms(a.firstUpdateMs)} | ${ms(a.durationMs)} | ${ms(a.workingMs)} | ${ms(a.permissionWaitMs)} | ${a.toolCalls}${kinds ? ` (${kinds})` : ''} | ${a.permissionRequests} | ${usageText(a.usage)} | ${a.filesChanged.length} | +${a.linesAdded} −${a.linesRemoved} | ${verify} |`,
    );
  }
  const errors = c.agents.filter((a) => a.error);
  if (errors.length) {
    lines.push('', '### Errors', '');
    for (const a of errors) lines.push(`- ${a.label}: ${a.error}`);
  }
  if (c.divergentFiles.length) {
    lines.push('', '## Files changed differently by several agents', '');
    for (const d of c.divergentFiles) lines.push(`- \`${d.path}\`: ${d.agents.map((x) => `${c.agents[x.index]?.label ?? x.index} (${x.status})`).join(', ')}`);
  }
  for (const a of c.agents) {
    lines.push('', `## ${a.index}. ${a.label}`, '');
    lines.push(`Workspace: \`${a.workspace}\``, '');
    if (a.lastAnswer) lines.push('Last answer:', '', ...codeBlock(a.lastAnswer, 'text'), '');
    if (a.filesChanged.length === 0) lines.push('No files changed.');
    for (const f of a.filesChanged) lines.push(`- ${f.status} \`${f.path}\` ${f.binary ? '(binary)' : `+${f.added} −${f.removed}`}`);
    for (const [name, r] of [['Setup', a.setup], ['Verification', a.verify]] as const) {
      if (!r) continue;
      const status = r.error ? `could not be started: ${r.error}` : r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`;
      lines.push('', `${name} \`${r.command}\`: ${status} (${ms(r.durationMs)})`);
      if (r.output) lines.push('', ...codeBlock(r.output.replace(/\n$/, ''), 'text'));
    }
    if (a.patch) lines.push('', ...codeBlock(a.patch.replace(/\n$/, ''), 'diff'));
  }
  return `${lines.join('\n')}\n`;
}

/** The turns' time less the time they waited for the user's permission answers: the agent's own pace. */
export function workingMs(durationMs: number | null, permissionWaitMs: number): number | null {
  return durationMs === null ? null : Math.max(0, durationMs - permissionWaitMs);
}
