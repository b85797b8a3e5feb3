/**
 * A session as a readable Markdown document: what it was (agent, folder, dates, turns, usage, files
 * changed), then the conversation — prompts, answers, thoughts as quotes, tool calls with their
 * output and diffs, plans as checklists, errors, turn ends. Agent text is Markdown already and goes
 * in as is; everything else (tool output, diffs, JSON) goes in fences long enough never to be
 * closed by what they hold.
 */
import type { ContentBlock, ToolCallContent } from '../../../common/transcript/acp-types';
import { entryList, type Entry, type ToolCallEntry, type Transcript } from '../../../common/transcript/model';
import type { HistoryEntry } from './history-types';
import { unifiedDiff } from './line-diff';
import { codeBlock } from '../../../common/text/markdown-fence';

const MAX_OUTPUT_CHARS = 20_000;
const MAX_JSON_CHARS = 2_000;

function fence(text: string, lang = ''): string {
  return codeBlock(text.replace(/\n$/, ''), lang).join('\n');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

/** Markdown-significant characters in one-line labels (titles, paths) are escaped (`_` is left: inside words it is plain). */
function inline(text: string): string {
  return text.replace(/[\\`*[\]<>#|]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

function contentText(content: readonly ContentBlock[]): string {
  return content
    .map((b) => {
      switch (b.type) {
        case 'text':
          return b.text;
        case 'resource_link':
          return `[${inline(b.name ?? b.uri)}](${b.uri})`;
        case 'resource':
          return `\`${b.resource?.uri ?? 'resource'}\``;
        default:
          return `*(${b.type} ${(b as { mimeType?: string }).mimeType ?? ''})*`;
      }
    })
    .join('');
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n');
}

function toolContent(c: ToolCallContent, t: Transcript): string {
  switch (c.type) {
    case 'diff': {
      const diff = unifiedDiff(c.oldText, c.newText);
      const head = c.oldText === null || c.oldText === undefined ? `New file \`${c.path}\`:` : `Diff of \`${c.path}\`:`;
      return `${head}\n\n${fence(clip(diff || '(no change)', MAX_OUTPUT_CHARS), 'diff')}`;
    }
    case 'terminal': {
      const term = t.terminals[c.terminalId];
      const cmd = term?.command ? `\`${[term.command, ...(term.args ?? [])].join(' ')}\`` : `terminal ${c.terminalId}`;
      const exit = term?.exitCode !== undefined && term.exitCode !== null ? ` (exit ${term.exitCode})` : term?.signal ? ` (${term.signal})` : '';
      return `Terminal ${cmd}${exit}:\n\n${fence(clip(term?.output ?? '(no output recorded)', MAX_OUTPUT_CHARS))}`;
    }
    case 'content':
      return c.content.type === 'text' ? fence(clip(c.content.text, MAX_OUTPUT_CHARS)) : contentText([c.content]);
    default:
      return fence(clip(JSON.stringify(c, null, 2), MAX_JSON_CHARS), 'json');
  }
}

function toolCall(e: ToolCallEntry, t: Transcript): string {
  const parts = [`#### Tool: ${inline(e.title || e.toolCallId)}`, '', `*${e.toolKind}, ${e.status}*`];
  if (e.locations.length) parts.push('', `Files: ${e.locations.map((l) => `\`${l.path}${l.line ? `:${l.line}` : ''}\``).join(', ')}`);
  for (const c of e.content) parts.push('', toolContent(c, t));
  if (e.content.length === 0 && e.rawOutput !== undefined) parts.push('', fence(clip(typeof e.rawOutput === 'string' ? e.rawOutput : JSON.stringify(e.rawOutput, null, 2), MAX_OUTPUT_CHARS)));
  for (const p of e.permissions) {
    const choice = p.status === 'selected' ? `${p.optionName ?? p.optionId} (${p.optionKind ?? 'unknown kind'})` : p.status;
    parts.push('', `Permission: **${inline(choice)}**${p.decidedBy ? ` by ${p.decidedBy}` : ''}${p.rule ? ` (${inline(p.rule)})` : ''}`);
  }
  return parts.join('\n');
}

function entryMarkdown(e: Entry, t: Transcript): string | undefined {
  switch (e.kind) {
    case 'user_message':
      return `### User\n\n${contentText(e.content)}`;
    case 'agent_message':
      return `### Agent\n\n${contentText(e.content)}`;
    case 'thought':
      return `${quote(`*Thinking:* ${contentText(e.content)}`)}`;
    case 'tool_call':
      return toolCall(e, t);
    case 'plan':
      return `**Plan**\n\n${e.entries.map((p) => `- [${p.status === 'completed' ? 'x' : ' '}] ${inline(p.content)}${p.status === 'in_progress' ? ' *(in progress)*' : ''}`).join('\n') || '*(empty)*'}`;
    case 'mode_change':
      return `*Mode: ${inline(e.previousModeId ?? '?')} → ${inline(e.modeId)}*`;
    case 'config_change':
      return `*Config: ${e.changes.map((c) => `${inline(c.name ?? c.configId)} → ${inline(JSON.stringify(c.to))}`).join(', ')}*`;
    case 'usage':
      return `*Context: ${e.used ?? '?'} / ${e.size ?? '?'} tokens${e.cost ? `, ${e.cost.amount} ${e.cost.currency}` : ''}*`;
    case 'session_info':
      return e.title ? `*Title: ${inline(e.title)}*` : undefined;
    case 'available_commands':
      return undefined;
    case 'notice':
      return quote(`**${e.severity}:** ${e.title}${e.description ? `\n${e.description}` : ''}`);
    case 'error': {
      const head = `**Error${e.code !== undefined ? ` ${e.code}` : ''}:** ${e.message}${e.method ? ` (${e.method})` : ''}`;
      const tail = e.stderrTail?.length ? `\n\n${fence(e.stderrTail.join('\n'))}` : '';
      const data = e.data !== undefined ? `\n\n${fence(clip(JSON.stringify(e.data, null, 2), MAX_JSON_CHARS), 'json')}` : '';
      return quote(head) + data + tail;
    }
    case 'turn_end': {
      const parts = [e.stopReason ?? `no stop reason${e.error ? `: ${e.error.message}` : ''}`];
      if (e.durationMs !== undefined) parts.push(`${(e.durationMs / 1000).toFixed(1)} s`);
      return `*Turn ended: ${inline(parts.join(', '))}*\n\n---`;
    }
    case 'unknown_update':
      return `*Unknown update \`${e.sessionUpdate ?? '(none)'}\`:*\n\n${fence(clip(JSON.stringify(e.raw, null, 2), MAX_JSON_CHARS), 'json')}`;
  }
}

function headerTable(entry: HistoryEntry): string {
  const rows: Array<[string, string]> = [
    ['Session', `\`${entry.id}\`${entry.agentSessionId ? ` (agent: \`${entry.agentSessionId}\`)` : ''}`],
    ['Agent', inline(`${entry.agent.label}${entry.agent.version ? ` ${entry.agent.version}` : ''}`)],
    ['Folder', entry.cwd ? `\`${entry.cwd}\`` : '—'],
    ['Created', entry.createdAt],
    ['Updated', entry.updatedAt],
    ['Status', entry.status],
    ['Turns', `${entry.turns}${Object.keys(entry.stopReasons).length ? ` (${Object.entries(entry.stopReasons).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`],
  ];
  const tokens = Object.entries(entry.usage.tokens);
  if (tokens.length) rows.push(['Tokens', tokens.map(([k, v]) => `${k} ${v}`).join(', ')]);
  if (entry.usage.cost) rows.push(['Cost', `${entry.usage.cost.amount} ${entry.usage.cost.currency}`]);
  if (entry.tags.length) rows.push(['Tags', entry.tags.map(inline).join(', ')]);
  if (entry.lineage?.parentSessionId) rows.push(['Forked from', `\`${entry.lineage.parentSessionId}\`${entry.lineage.forkPoint?.entryId ? ` at ${entry.lineage.forkPoint.entryId}` : ''}`]);
  if (entry.lineage?.runId) rows.push(['Compare run', `\`${entry.lineage.runId}\``]);
  if (entry.filesChanged.length) rows.push(['Files changed', entry.filesChanged.map((f) => `\`${f}\``).join(', ')]);
  return ['| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`)].join('\n');
}

/** The document for a session; `transcripts` holds one transcript per trace it spans. */
export function renderSessionMarkdown(entry: HistoryEntry, transcripts: readonly Transcript[]): string {
  const out = [`# ${inline(entry.title)}`, '', headerTable(entry)];
  transcripts.forEach((t, i) => {
    if (transcripts.length > 1) out.push('', `## Connection ${i + 1} of ${transcripts.length} (\`${entry.traces[i]?.connectionId ?? '?'}\`)`);
    for (const e of entryList(t)) {
      const md = entryMarkdown(e, t);
      if (md !== undefined) out.push('', md);
    }
  });
  return `${out.join('\n')}\n`;
}
