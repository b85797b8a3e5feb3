/**
 * A terminal embedded in a tool call, live while it runs: a terminal the client created
 * (`transcript.terminals[id]`, fed by terminal/* requests) or one the agent renders itself through
 * the tool call's `_meta` (acp-reference §16). Only the last lines are rendered, so a chatty command
 * costs the same per update whatever it printed before.
 */
import { memo, useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import type { TerminalInfo, ToolCallEntry } from '../../../common/transcript/model';
import { useSessions } from '../../state/sessions-store';
import { AgentTerminalBuffer } from './agent-terminal';
import { parseAnsi, tailStart, xterm256, type AnsiColor, type AnsiSpan } from './ansi';

const MAX_LINES = 400;
const MAX_CHARS = 100_000;

/** Agent-rendered output folded from successive metas; outlives the row (virtualization). */
const agentBuffers = new Map<string, AgentTerminalBuffer>();
const MAX_AGENT_BUFFERS = 500;

function agentBuffer(key: string, terminalId: string): AgentTerminalBuffer {
  let b = agentBuffers.get(key);
  if (!b) {
    if (agentBuffers.size >= MAX_AGENT_BUFFERS) agentBuffers.delete(agentBuffers.keys().next().value!);
    agentBuffers.set(key, (b = new AgentTerminalBuffer(terminalId, 200_000)));
  }
  return b;
}

function colorStyle(c: AnsiColor | undefined): string | undefined {
  if (c === undefined || typeof c === 'string') return c;
  return c >= 16 ? xterm256(c) : undefined;
}

function SpanView({ span }: { span: AnsiSpan }) {
  const s = span.style;
  if (!s) return span.text;
  let fg = s.fg;
  let bg = s.bg;
  const classes: string[] = [];
  if (s.inverse) {
    [fg, bg] = [bg, fg];
    if (fg === undefined) classes.push('tx-ansi-fg-inv');
    if (bg === undefined) classes.push('tx-ansi-bg-inv');
  }
  if (typeof fg === 'number' && fg < 16) classes.push(`tx-ansi-fg-${fg}`);
  if (typeof bg === 'number' && bg < 16) classes.push(`tx-ansi-bg-${bg}`);
  if (s.bold) classes.push('tx-ansi-bold');
  if (s.dim) classes.push('tx-ansi-dim');
  if (s.italic) classes.push('tx-ansi-italic');
  if (s.underline) classes.push('tx-ansi-underline');
  if (s.strike) classes.push('tx-ansi-strike');
  const style: CSSProperties = {};
  const fgc = colorStyle(fg);
  const bgc = colorStyle(bg);
  if (fgc) style.color = fgc;
  if (bgc) style.backgroundColor = bgc;
  return (
    <span className={classes.join(' ') || undefined} style={fgc || bgc ? style : undefined}>
      {span.text}
    </span>
  );
}

export const AnsiOutput = memo(function AnsiOutput({ text, running }: { text: string; running: boolean }) {
  const preRef = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  const { start, hiddenLines } = tailStart(text, MAX_LINES, MAX_CHARS);
  const visible = start === 0 ? text : text.slice(start);
  const spans = useMemo(() => parseAnsi(visible), [visible]);
  useLayoutEffect(() => {
    const el = preRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [visible]);
  return (
    <>
      {hiddenLines ? (
        <div className="tx-term-note" data-testid="terminal-hidden-lines">
          Earlier output not shown ({start.toLocaleString()} characters).
        </div>
      ) : null}
      <pre
        ref={preRef}
        className="tx-term-out"
        data-testid="terminal-output"
        data-running={running ? 'true' : 'false'}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
        }}
      >
        {spans.map((s, i) => (
          <SpanView key={i} span={s} />
        ))}
        {text === '' ? <span className="tx-muted">{running ? 'waiting for output…' : '(no output)'}</span> : null}
      </pre>
    </>
  );
});

/** What agents put in `rawOutput` for a finished command, when no chunk reached us (e.g. after a reload). */
function rawOutputText(raw: ToolCallEntry['rawOutput']): string {
  if (typeof raw === 'string') return raw;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const k of ['formatted_output', 'aggregated_output', 'output', 'stdout']) {
      const v = raw[k];
      if (typeof v === 'string') return v;
    }
  }
  return '';
}

function statusLabel(info: { status: string; exitCode?: number | null; signal?: string | null }): string {
  if (info.status === 'running') return 'running';
  if (info.signal) return `killed (${info.signal})`;
  if (info.exitCode !== undefined && info.exitCode !== null) return `exit ${info.exitCode}`;
  return info.status;
}

function commandLine(info: TerminalInfo): string {
  return [info.command ?? '', ...(info.args ?? [])].filter(Boolean).join(' ');
}

export const ToolTerminal = memo(function ToolTerminal({ sessionId, entry, terminalId }: { sessionId: string; entry: ToolCallEntry; terminalId: string }) {
  const info = useSessions((s) => s.views[sessionId]?.transcript.terminals[terminalId]);
  if (info) {
    const st = info.status === 'running' ? 'running' : info.status === 'killed' || info.signal ? 'killed' : info.exitCode ? 'failed' : 'exited';
    return (
      <div className="tx-term" data-testid="terminal" data-terminal-id={terminalId} data-status={st}>
        <div className="tx-term-head">
          <span className="tx-term-cmd">$ {commandLine(info) || terminalId}</span>
          <span className={`tx-badge tx-term-status-${st}`} data-testid="terminal-status">
            {statusLabel(info)}
          </span>
          {info.truncated ? <span className="tx-muted">output truncated by the agent's byte limit</span> : null}
        </div>
        <AnsiOutput text={info.output ?? ''} running={info.status === 'running'} />
      </div>
    );
  }
  // Agent-rendered (or not created yet): whatever the tool call's _meta has said so far.
  const buffer = agentBuffer(`${sessionId}:${entry.id}:${terminalId}`, terminalId);
  buffer.update(entry.meta);
  const running = !buffer.exit && (entry.status === 'pending' || entry.status === 'in_progress');
  const st = running
    ? 'running'
    : buffer.exit
      ? buffer.exit.signal
        ? 'killed'
        : buffer.exit.exitCode
          ? 'failed'
          : 'exited'
      : entry.status === 'cancelled' || entry.status === 'failed'
        ? String(entry.status)
        : 'exited';
  return (
    <div className="tx-term" data-testid="terminal" data-terminal-id={terminalId} data-status={st} data-agent-rendered="true">
      <div className="tx-term-head">
        <span className="tx-term-cmd">terminal {terminalId}</span>
        <span className={`tx-badge tx-term-status-${st}`} data-testid="terminal-status">
          {buffer.exit ? statusLabel({ status: 'exited', ...buffer.exit }) : running ? 'running' : entry.status}
        </span>
      </div>
      <AnsiOutput text={buffer.text || rawOutputText(entry.rawOutput)} running={running} />
    </div>
  );
});
