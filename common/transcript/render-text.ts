/** A transcript as plain text, for the CLI (`trace render`, `run`) and for logs. */
import type { ContentBlock, ToolCallContent } from './acp-types';
import { entryList, type Entry, type ToolCallEntry, type Transcript } from './model';

const LABEL_WIDTH = 10;
const MAX_JSON_CHARS = 400;

export function renderTranscriptText(t: Transcript): string {
  const out: string[] = [];
  for (const e of entryList(t)) out.push(...renderEntry(e));
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** Terminal escapes and other control characters: agent and stderr text is untrusted. */
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-_]|[\u0000-\u0008\u000b-\u001f\u007f\u009b]/g;

function block(label: string, text: string): string[] {
  const lines = text.replace(CONTROL, '').split('\n');
  return lines.map((l, i) => `${(i === 0 ? label : '').padEnd(LABEL_WIDTH)}│ ${l}`.trimEnd());
}

function contentText(content: readonly ContentBlock[]): string {
  return content
    .map((b) => {
      switch (b.type) {
        case 'text':
          return b.text;
        case 'resource_link':
          return `[link ${b.uri}]`;
        case 'resource':
          return `[resource ${b.resource?.uri ?? ''}]`;
        case 'image':
        case 'audio':
          return `[${b.type} ${b.mimeType}]`;
        default:
          return `[${(b as { type: string }).type}]`;
      }
    })
    .join('');
}

const json = (v: unknown) => {
  const s = JSON.stringify(v) ?? '';
  return s.length > MAX_JSON_CHARS ? `${s.slice(0, MAX_JSON_CHARS)}…` : s;
};

function lineCount(text: string | null | undefined): number {
  return text ? text.split('\n').length : 0;
}

function toolContent(c: ToolCallContent): string {
  switch (c.type) {
    case 'diff':
      return c.oldText === null || c.oldText === undefined
        ? `  diff ${c.path} (new file, ${lineCount(c.newText)} lines)`
        : `  diff ${c.path} (${lineCount(c.oldText)} → ${lineCount(c.newText)} lines)`;
    case 'terminal':
      return `  terminal ${c.terminalId}`;
    case 'content':
      return `  ${contentText([c.content]).split('\n').join('\n  ')}`;
    default:
      return `  ${json(c)}`;
  }
}

function renderToolCall(e: ToolCallEntry): string[] {
  const lines = [`[${e.status}] ${e.title || e.toolCallId} (${e.toolKind}, ${e.toolCallId})`];
  for (const c of e.content) lines.push(toolContent(c));
  for (const l of e.locations) lines.push(`  at ${l.path}${l.line ? `:${l.line}` : ''}`);
  for (const p of e.permissions) {
    const choice = p.status === 'selected' ? `${p.optionName ?? p.optionId} (${p.optionKind ?? 'unknown kind'})` : p.status;
    lines.push(`  permission: ${choice}${p.decidedBy ? ` by ${p.decidedBy}` : ''}`);
    for (const c of p.context ?? []) lines.push(`  ${toolContent(c)}`);
  }
  return block('tool', lines.join('\n'));
}

function renderEntry(e: Entry): string[] {
  switch (e.kind) {
    case 'user_message':
      return block('user', contentText(e.content));
    case 'agent_message':
      return block('agent', contentText(e.content));
    case 'thought':
      return block('thought', contentText(e.content));
    case 'tool_call':
      return renderToolCall(e);
    case 'plan': {
      const mark = { pending: '[ ]', in_progress: '[~]', completed: '[x]' } as Record<string, string>;
      return block('plan', e.entries.map((p) => `${mark[p.status] ?? '[?]'} ${p.content}`).join('\n') || '(empty)');
    }
    case 'mode_change':
      return block('mode', `${e.previousModeId ?? '?'} → ${e.modeId} (${e.source})`);
    case 'config_change':
      return block('config', e.changes.map((c) => `${c.name ?? c.configId}: ${json(c.from)} → ${json(c.to)}`).join('\n'));
    case 'usage': {
      const cost = e.cost ? `, ${e.cost.amount} ${e.cost.currency}` : '';
      return block('usage', `${e.used ?? '?'} / ${e.size ?? '?'} tokens${cost}`);
    }
    case 'session_info':
      return block('info', [e.title !== undefined ? `title: ${e.title}` : '', e.updatedAt !== undefined ? `updated: ${e.updatedAt}` : ''].filter(Boolean).join(', '));
    case 'available_commands':
      return block('commands', e.commands.map((c) => `/${c.name}`).join(' ') || '(none)');
    case 'notice':
      return block('notice', `[${e.severity}] ${e.title}${e.description ? `\n${e.description}` : ''}`);
    case 'error': {
      const head = `${e.code !== undefined ? `${e.code} ` : ''}${e.message}${e.method ? ` (${e.method})` : ''}`;
      const data = e.data !== undefined ? `\ndata: ${json(e.data)}` : '';
      const tail = e.stderrTail?.length ? `\nstderr:\n  ${e.stderrTail.join('\n  ')}` : '';
      return block('error', head + data + tail);
    }
    case 'turn_end': {
      const parts = [e.stopReason ?? `no stop reason${e.error ? `: ${e.error.message}` : ''}`];
      if (e.durationMs !== undefined) parts.push(`${(e.durationMs / 1000).toFixed(1)} s`);
      if (e.usage) parts.push(`usage ${json(e.usage)}`);
      return block('turn end', parts.join(', '));
    }
    case 'unknown_update':
      return block('unknown', `${e.sessionUpdate ?? '(no sessionUpdate)'} ${json(e.raw)}`);
  }
}
