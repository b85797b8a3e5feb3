/**
 * A live connection's conformance report as a Markdown file: what a QA engineer attaches to a bug
 * report for an agent's maintainers — who was judged, the counts, and each finding with the
 * messages that show it, in full (cut at a size that keeps the file readable).
 */
import type { FindingsResult } from '../api/qa-types';
import type { AgentView } from '../api/session-api-types';
import { codeBlock, longestBacktickRun } from './markdown-fence';

/** One message a finding points at: its inspector row and the trace record. */
export interface EvidenceMessage {
  index: number;
  record: Record<string, unknown>;
}

export interface ConformanceMarkdownInput {
  agent: Pick<AgentView, 'label' | 'name' | 'version' | 'protocolVersion' | 'command'>;
  report: FindingsResult;
  /** The evidence fetched, by inspector row (rows not fetched are listed by number alone). */
  messages: ReadonlyMap<number, EvidenceMessage>;
  /** When it was written (ms since the epoch). */
  at: number;
  /** Characters of a message's JSON kept before it is cut. */
  maxMessageChars?: number;
  /** How the findings were judged, one sentence (default: live, on the app's connection). */
  judged?: string;
  /** What a finding's `rows` number: inspector messages (the app) or trace lines (the CLI). */
  rowLabel?: 'Message' | 'Trace line';
}

/** Rows of a finding whose messages are put in the report (the rest by number). */
export const EVIDENCE_PER_FINDING = 3;
const MAX_MESSAGE_CHARS = 4000;

export function conformanceMarkdown(input: ConformanceMarkdownInput): string {
  const { agent, report, messages } = input;
  const max = input.maxMessageChars ?? MAX_MESSAGE_CHARS;
  const who = [agent.name ?? agent.label, agent.version].filter(Boolean).join(' ');
  const out: string[] = [`# Conformance report: ${inline(who)}`, ''];
  out.push(`- Agent command: ${code(agent.command)}`);
  if (agent.protocolVersion !== undefined) out.push(`- Protocol version: ${agent.protocolVersion}`);
  out.push(`- Written: ${new Date(input.at).toISOString()}`);
  const { error, warning, info } = report.counts;
  out.push(`- Findings: ${error} ${error === 1 ? 'error' : 'errors'}, ${warning} ${warning === 1 ? 'warning' : 'warnings'}, ${info} ${info === 1 ? 'note' : 'notes'}`);
  out.push('', input.judged ?? 'Judged live by ACP Workbench from what crossed the wire on this connection; time rules are judged as later messages arrive.', '');
  if (report.findings.length === 0) out.push('No findings.', '');
  report.findings.forEach((f, i) => {
    out.push(`## ${i + 1}. ${f.severity.toUpperCase()} ${code(f.rule)}`, '', inline(f.message), '');
    if (f.rationale) out.push(`Why it matters: ${inline(f.rationale)}`, '');
    out.push(`Rule: ${f.docs}`);
    if (f.evidence.length) out.push(`Trace lines: ${f.evidence.join(', ')}`);
    out.push('');
    const shown = f.rows.slice(0, EVIDENCE_PER_FINDING).filter((r) => messages.has(r));
    const label = input.rowLabel ?? 'Message';
    for (const index of shown) out.push(`${label} ${label === 'Message' ? '#' : ''}${index}:`, '', ...codeBlock(messageJson(messages.get(index)!.record, max), 'json'), '');
    const rest = f.rows.filter((r) => !shown.includes(r));
    if (rest.length && label === 'Message') out.push(`${shown.length ? 'Also messages' : 'Messages'}: ${rest.map((r) => `#${r}`).join(', ')}`, '');
  });
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The record's message (or its text, for stderr and noise), pretty-printed and cut at `max` characters. */
function messageJson(record: Record<string, unknown>, max: number): string {
  const shown = 'msg' in record ? record.msg : record;
  const text = JSON.stringify(shown, null, 2) ?? String(shown);
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters; the whole message is in the trace)`;
}

/** Inline code that no backtick in the text can end. */
function code(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Agent-given text on one line, with Markdown's and HTML's active characters escaped. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()#+!|<>&~]/g, (c) => `\\${c}`);
}
