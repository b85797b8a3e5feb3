/** Small inline notes: mode and config changes, usage, session info, available commands. */
import { memo, type ReactNode } from 'react';
import type { AvailableCommandsEntry, ConfigChangeEntry, ModeChangeEntry, SessionInfoEntry, UsageEntry } from '../../../common/transcript/model';
import { useSessionState } from '../../state/sessions-store';
import { Disclosure, EntryShell, shortJson } from './common';
import { formatCost } from '../../../common/text/cost';
import { formatTokens } from '../../../common/text/tokens';

function Note({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="tx-note" data-testid={testId}>
      {children}
    </div>
  );
}

export const ModeChange = memo(function ModeChange({ sessionId, entry }: { sessionId: string; entry: ModeChangeEntry }) {
  const modes = useSessionState(sessionId)?.modes?.availableModes;
  const name = (id: string | undefined) => (id === undefined ? undefined : (modes?.find((m) => m.id === id)?.name ?? id));
  return (
    <EntryShell entry={entry}>
      <Note testId="mode-change">
        Mode {entry.previousModeId !== undefined ? <b>{name(entry.previousModeId)}</b> : null}
        {entry.previousModeId !== undefined ? ' → ' : ''}
        <b>{name(entry.modeId)}</b>
        <span className="tx-muted"> · {entry.source === 'agent' ? 'by the agent' : 'set by you'}</span>
      </Note>
    </EntryShell>
  );
});

export const ConfigChange = memo(function ConfigChange({ entry }: { entry: ConfigChangeEntry }) {
  const by = entry.source === 'agent' ? 'by the agent' : 'set by you';
  return (
    <EntryShell entry={entry}>
      <Note testId="config-change">
        {entry.changes.map((c, i) => (
          <span key={i} className="tx-note-part">
            {c.name ?? c.configId}: {c.from !== undefined ? <>{shortJson(c.from)} → </> : null}
            <b>{shortJson(c.to)}</b>
          </span>
        ))}
        <span className="tx-muted"> · {by}</span>
      </Note>
    </EntryShell>
  );
});

export const Usage = memo(function Usage({ entry }: { entry: UsageEntry }) {
  const pct = entry.used !== undefined && entry.size ? Math.round((entry.used / entry.size) * 1000) / 10 : undefined;
  return (
    <EntryShell entry={entry}>
      <Note testId="usage">
        <span>
          Context {formatTokens(entry.used)} / {formatTokens(entry.size)} tokens{pct !== undefined ? ` (${pct}%)` : ''}
          {entry.cost ? ` · cost ${formatCost(entry.cost.amount, entry.cost.currency)}` : ''}
        </span>
      </Note>
    </EntryShell>
  );
});

export const SessionInfo = memo(function SessionInfo({ entry }: { entry: SessionInfoEntry }) {
  return (
    <EntryShell entry={entry}>
      <Note testId="session-info">
        {entry.title !== undefined ? (
          <span className="tx-note-part">Title: {entry.title === null ? <i>cleared</i> : <b>{entry.title}</b>}</span>
        ) : null}
        {entry.updatedAt ? <span className="tx-note-part tx-muted">updated {entry.updatedAt}</span> : null}
        {entry.title === undefined && !entry.updatedAt ? 'Session info updated' : null}
      </Note>
    </EntryShell>
  );
});

export const AvailableCommands = memo(function AvailableCommands({ sessionId, entry }: { sessionId: string; entry: AvailableCommandsEntry }) {
  return (
    <EntryShell entry={entry}>
      <Disclosure
        stateKey={`${sessionId}:${entry.id}:commands`}
        testId="available-commands-toggle"
        summary={<span className="tx-note">{entry.commands.length} slash commands available</span>}
      >
        {() => (
          <ul className="tx-commands" data-testid="available-commands">
            {entry.commands.map((c) => (
              <li key={c.name}>
                <code>/{c.name}</code> <span className="tx-muted">{c.description}</span>
              </li>
            ))}
          </ul>
        )}
      </Disclosure>
    </EntryShell>
  );
});
