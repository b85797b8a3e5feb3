/** Pieces every entry row uses: the outer element with its test id, flags, JSON blocks. */
import type { ReactNode } from 'react';
import type { JsonValue } from '../../../common/trace/json';
import type { Entry, EntryFlag } from '../../../common/transcript/model';
import { useSessions } from '../../state/sessions-store';
import { useDisclosure } from '../ui-state';
import { Chevron } from './icons';

const FLAG_LABELS: Record<EntryFlag, string> = {
  'mode-id-key': 'sent modeId instead of currentModeId',
  'created-lazily': 'first seen in an update',
  'tool-call-resent': 'tool_call re-sent',
  'echoed-by-agent': 'echoed by the agent',
  'after-turn-end': 'after the turn ended',
  replayed: 'replayed',
};

export function EntryShell({ entry, className, children }: { entry: Entry; className?: string; children: ReactNode }) {
  return (
    <div
      className={`tx-entry tx-entry-${entry.kind}${className ? ` ${className}` : ''}`}
      data-testid={`entry-${entry.kind}`}
      data-entry-id={entry.id}
      data-turn={entry.turn}
    >
      {children}
      {entry.flags && entry.flags.length > 0 ? <Flags flags={entry.flags} /> : null}
    </div>
  );
}

/** Protocol deviations noted by the reducer, shown small: QA wants to see them. */
export function Flags({ flags }: { flags: readonly EntryFlag[] }) {
  return (
    <div className="tx-flags" data-testid="entry-flags">
      {flags.map((f) => (
        <span key={f} className="tx-flag" data-flag={f} title={f}>
          {FLAG_LABELS[f] ?? f}
        </span>
      ))}
    </div>
  );
}

export const MAX_JSON_CHARS = 20_000;

export function jsonText(value: unknown, max = MAX_JSON_CHARS): string {
  let s: string;
  try {
    s = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max)}\n… (${s.length - max} more characters)` : s;
}

export function JsonBlock({ value, testId = 'json' }: { value: JsonValue | undefined; testId?: string }) {
  return (
    <pre className="tx-json" data-testid={testId}>
      {jsonText(value)}
    </pre>
  );
}

/** A collapsed-by-default section whose state survives the row being virtualized away. */
export function Disclosure({
  stateKey,
  summary,
  testId,
  defaultOpen = false,
  children,
}: {
  stateKey: string;
  summary: ReactNode;
  testId: string;
  defaultOpen?: boolean;
  children: () => ReactNode;
}) {
  const [open, toggle] = useDisclosure(stateKey, defaultOpen);
  return (
    <div className="tx-disclosure" data-open={open ? 'true' : 'false'}>
      <button type="button" className="tx-disclosure-toggle" data-testid={testId} aria-expanded={open} onClick={toggle}>
        <Chevron open={open} />
        {summary}
      </button>
      {open ? <div className="tx-disclosure-body">{children()}</div> : null}
    </div>
  );
}

/** True while this entry is the last one of a running turn (its text may still grow). */
export function useIsStreaming(sessionId: string, entryId: string): boolean {
  return useSessions((s) => {
    const t = s.views[sessionId]?.transcript;
    if (!t || t.session.turnStatus === 'idle') return false;
    return t.ids[t.ids.length - 1] === entryId;
  });
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function shortJson(value: unknown, max = 80): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
