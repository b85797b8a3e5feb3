/** One transcript row: selects its own entry from the store and renders it by kind. */
import { memo } from 'react';
import { useEntry } from '../state/sessions-store';
import { EntryShell } from './entries/common';
import { AgentMessage, Thought, UserMessage } from './entries/MessageEntries';
import { AvailableCommands, ConfigChange, ModeChange, SessionInfo, Usage } from './entries/Notes';
import { PlanCard } from './entries/PlanCard';
import { ErrorCard, Notice, TurnEnd, UnknownUpdate } from './entries/Problems';
import { ToolCallCard } from './entries/ToolCallCard';

export const EntryRow = memo(function EntryRow({ sessionId, entryId }: { sessionId: string; entryId: string }) {
  const entry = useEntry(sessionId, entryId);
  if (!entry) return null;
  switch (entry.kind) {
    case 'user_message':
      return <UserMessage sessionId={sessionId} entry={entry} />;
    case 'agent_message':
      return <AgentMessage sessionId={sessionId} entry={entry} />;
    case 'thought':
      return <Thought sessionId={sessionId} entry={entry} />;
    case 'tool_call':
      return <ToolCallCard sessionId={sessionId} entry={entry} />;
    case 'plan':
      return <PlanCard entry={entry} />;
    case 'mode_change':
      return <ModeChange sessionId={sessionId} entry={entry} />;
    case 'config_change':
      return <ConfigChange entry={entry} />;
    case 'usage':
      return <Usage entry={entry} />;
    case 'session_info':
      return <SessionInfo entry={entry} />;
    case 'available_commands':
      return <AvailableCommands sessionId={sessionId} entry={entry} />;
    case 'notice':
      return <Notice entry={entry} />;
    case 'error':
      return <ErrorCard entry={entry} />;
    case 'turn_end':
      return <TurnEnd entry={entry} />;
    case 'unknown_update':
      return <UnknownUpdate sessionId={sessionId} entry={entry} />;
    default: {
      const other = entry as { kind: string };
      return <EntryShell entry={entry}>{`(${other.kind})`}</EntryShell>;
    }
  }
});

/** A first guess of a row's height before it is measured (keeps the scrollbar steady). */
export function estimateHeight(kind: string | undefined): number {
  switch (kind) {
    case 'tool_call':
      return 64;
    case 'plan':
      return 96;
    case 'agent_message':
    case 'user_message':
      return 56;
    case 'error':
      return 80;
    default:
      return 28;
  }
}
