/**
 * The pane header's inspector button. It stays mounted with the pane, so it also follows the
 * session's QA events (requests held for a manual answer, finding counts) and shows a badge when
 * a request waits for the tester while the panel is closed.
 */
import { useEffect } from 'react';
import { api } from '../api/api-context';
import { useConnected } from '../state/connection-store';
import { layout, useLayout } from '../state/layout-store';
import { inspectorUi, useQaLive } from './inspector-ui';

export function InspectorToggle({ sessionId }: { sessionId: string }) {
  const open = useLayout((s) => Boolean(s.inspectorOpen[sessionId]));
  const { pending } = useQaLive(sessionId);
  const connected = useConnected();
  useEffect(() => {
    if (!connected) return;
    let cancelled = false;
    void api()
      .request('qa/state', { sessionId })
      .then((state) => !cancelled && inspectorUi.setLive(sessionId, { pending: state.pending }))
      .catch(() => undefined); // the session may be gone already
    void api()
      .request('qa/findings', { sessionId })
      .then((r) => !cancelled && inspectorUi.setLive(sessionId, { counts: r.counts }))
      .catch(() => undefined);
    const offs = [
      api().on('qa/manual-changed', (e) => e.sessionId === sessionId && inspectorUi.setLive(sessionId, { pending: e.pending })),
      api().on('qa/findings-changed', (e) => e.sessionId === sessionId && inspectorUi.setLive(sessionId, { counts: e.counts })),
    ];
    return () => {
      cancelled = true;
      offs.forEach((off) => off());
    };
  }, [sessionId, connected]);
  return (
    <button
      type="button"
      className={`icon inspector-toggle${open ? ' active' : ''}`}
      aria-pressed={open}
      onClick={() => layout.toggleInspector(sessionId)}
      title="Protocol inspector: every message, manual answers and faults, raw requests, conformance"
      data-testid="toggle-inspector"
    >
      {'{ }'}
      {pending.length > 0 && !open && (
        <span className="badge attention" data-testid="inspector-toggle-badge">
          {pending.length}
        </span>
      )}
    </button>
  );
}
