/**
 * The readable transcript `acp-workbench run` streams without --json: agent text as it arrives,
 * tool calls, plans, permission decisions, turn ends and errors. With several agents each line is
 * prefixed by the agent's label, and text is line-buffered per agent so agents never interleave
 * inside a line. Agent text is printed as text; control characters are stripped so an agent cannot
 * drive the user's terminal.
 */
import { counted } from '../../../common/text/counted';
import type { CliIo } from '../command';
import type { RunEvent } from './run-events';

type Json = Record<string, unknown>;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const clean = (text: string) => text.replace(CONTROL, '');

const PLAN_MARK: Record<string, string> = { completed: '[x]', in_progress: '[~]', pending: '[ ]' };

export class HumanOutput {
  private readonly partial = new Map<number, string>();

  constructor(
    private readonly io: CliIo,
    private readonly prefixed: boolean,
  ) {}

  event(e: RunEvent): void {
    const i = e.agent.index;
    const label = e.agent.label;
    switch (e.type) {
      case 'starting':
        return this.note(`[${label}] starting ${[e.command, ...e.args].join(' ')}`);
      case 'initialized': {
        const info = (e.agentInfo ?? {}) as Json;
        const name = [info.title ?? info.name, info.version].filter(Boolean).join(' ');
        return this.note(`[${label}] initialized${name ? `: ${String(name)}` : ''} (protocol ${String(e.protocolVersion)})`);
      }
      case 'session':
        return this.note(`[${label}] session ${e.id}; trace ${e.trace}`);
      case 'update':
        return this.update(i, label, (e.update ?? {}) as Json);
      case 'permission':
        return this.line(i, label, `? permission ${e.outcome}${e.optionId ? ` (${e.optionId})` : ''} by ${e.by}`);
      case 'cancel':
        return this.line(i, label, `! cancel sent (${e.by})`);
      case 'notice':
        return this.line(i, label, `! ${clean(e.message)}`);
      case 'error':
        this.flushText(i, label);
        this.io.stderr(`[${label}] error: ${clean(e.message)}\n`);
        if (e.stderrTail?.length) {
          this.io.stderr(`[${label}] last lines of its stderr:\n`);
          for (const l of e.stderrTail) this.io.stderr(`[${label}]   ${clean(l)}\n`);
        }
        return;
      case 'turn_end':
        return this.line(i, label, `-- turn ended: ${e.stopReason}`);
      case 'summary': {
        this.flushText(i, label);
        const parts = [
          `stop ${e.stopReason ?? 'none'}`,
          counted(e.updates, 'update'),
          counted(e.toolCalls, 'tool call'),
          counted(e.permissionRequests, 'permission request'),
          `${counted(e.filesChanged.length, 'file')} changed`,
          e.durationMs !== null ? `${(e.durationMs / 1000).toFixed(2)} s` : null,
        ].filter(Boolean);
        this.io.stderr(`[${label}] ${e.error ? 'FAILED' : 'done'}: ${parts.join(', ')}${e.error ? ` — ${clean(e.error)}` : ''}\n`);
        for (const f of e.filesChanged) this.io.stderr(`[${label}]   changed ${f}\n`);
        return;
      }
    }
  }

  private update(i: number, label: string, u: Json): void {
    const content = (u.content ?? {}) as Json;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
        if (content.type === 'text' && typeof content.text === 'string') this.text(i, label, content.text);
        return;
      case 'agent_thought_chunk':
        return;
      case 'tool_call':
        return this.line(i, label, `* ${clean(String(u.title ?? u.toolCallId ?? 'tool call'))}${u.kind ? ` [${String(u.kind)}]` : ''}`);
      case 'tool_call_update':
        if (u.status === 'completed' || u.status === 'failed') this.line(i, label, `  ${String(u.toolCallId)} ${String(u.status)}`);
        return;
      case 'plan': {
        const entries = Array.isArray(u.entries) ? (u.entries as Json[]) : [];
        this.line(i, label, 'Plan:');
        for (const entry of entries) this.line(i, label, `  ${PLAN_MARK[String(entry.status)] ?? '[ ]'} ${clean(String(entry.content ?? ''))}`);
        return;
      }
      default:
        return;
    }
  }

  private text(i: number, label: string, text: string): void {
    const cleaned = text.replace(/\r\n?/g, '\n').replace(CONTROL, (c) => (c === '\n' ? c : ''));
    if (!this.prefixed) {
      this.io.stdout(cleaned);
      this.partial.set(i, cleaned.endsWith('\n') ? '' : 'open');
      return;
    }
    const lines = ((this.partial.get(i) ?? '') + cleaned).split('\n');
    this.partial.set(i, lines.pop()!);
    for (const l of lines) this.io.stdout(`${label} | ${l}\n`);
  }

  private flushText(i: number, label: string): void {
    const rest = this.partial.get(i);
    if (!rest) return;
    this.partial.set(i, '');
    if (this.prefixed) this.io.stdout(`${label} | ${rest}\n`);
    else this.io.stdout('\n');
  }

  private line(i: number, label: string, text: string): void {
    this.flushText(i, label);
    this.io.stdout(this.prefixed ? `${label} | ${text}\n` : `${text}\n`);
  }

  private note(text: string): void {
    this.io.stderr(`${text}\n`);
  }
}
