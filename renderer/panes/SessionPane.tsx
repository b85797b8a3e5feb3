import { lazy, Suspense } from 'react';
import { ChangesPanel } from '../changes/ChangesPanel';
import { Composer } from '../composer/Composer';
import { Elicitations } from '../elicitation/ElicitationCard';
import { layout, useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { paneAgentName, paneExists, paneLoadError, paneSending, paneStatus } from '../state/pane-selectors';
import { TranscriptView } from '../transcript/TranscriptView';
import { CrashBanner } from './CrashBanner';
import { PaneHeader } from './PaneHeader';

// The protocol inspector loads when a pane first shows it (start-up, issue #11).
const InspectorPanel = lazy(async () => ({ default: (await import('../inspector/InspectorPanel')).InspectorPanel }));

/** One agent session: header with its controls, the transcript, changes, and the composer. */
export function SessionPane({ sessionId, index }: { sessionId: string; index: number }) {
  // What the pane's own element shows, selected apart (pane-selectors.ts): the view object is new
  // on every streamed frame.
  const exists = useSessions(paneExists(sessionId));
  const status = useSessions(paneStatus(sessionId));
  const sending = useSessions(paneSending(sessionId));
  const agentName = useSessions(paneAgentName(sessionId));
  const loadError = useSessions(paneLoadError(sessionId));
  const focused = useLayout((s) => s.focused === sessionId);
  const changesOpen = useLayout((s) => Boolean(s.changesOpen[sessionId]));
  const inspectorOpen = useLayout((s) => Boolean(s.inspectorOpen[sessionId]));
  if (!exists) return null;
  return (
    <section
      className={`session-pane${focused ? ' focused' : ''}`}
      data-testid="session-pane"
      data-session-id={sessionId}
      data-index={index}
      data-status={status}
      data-sending={sending || undefined}
      onFocusCapture={() => !focused && layout.focus(sessionId)}
      onMouseDown={() => !focused && layout.focus(sessionId)}
      aria-label={`Session with ${agentName}`}
    >
      <PaneHeader sessionId={sessionId} index={index} />
      <CrashBanner sessionId={sessionId} />
      {loadError && (
        <p className="error pane-error" role="alert">
          Could not load this session: {loadError}
        </p>
      )}
      <div className="pane-body">
        <TranscriptView sessionId={sessionId} />
        {changesOpen && (
          <aside className="changes-aside" data-testid="changes-aside">
            <ChangesPanel sessionId={sessionId} />
          </aside>
        )}
      </div>
      {inspectorOpen && (
        <Suspense fallback={null}>
          <InspectorPanel sessionId={sessionId} />
        </Suspense>
      )}
      <Elicitations sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  );
}
