/**
 * The protocol inspector of one session's agent connection, shown under the transcript: every
 * message (Messages), manual answers and fault rules (Faults & manual), the raw request composer,
 * and the live conformance report. Its height is dragged from the top edge.
 */
import { useRef, type PointerEvent } from 'react';
import { layout, useLayout } from '../state/layout-store';
import { ComposerTab } from './ComposerTab';
import { ConformanceTab } from './ConformanceTab';
import { FaultsTab } from './FaultsTab';
import { inspectorUi, useQaLive, useSessionInspector, type InspectorTab } from './inspector-ui';
import { MessagesTab } from './MessagesTab';
import './inspector.css';

const TABS: Array<{ id: InspectorTab; label: string }> = [
  { id: 'messages', label: 'Messages' },
  { id: 'faults', label: 'Faults & manual' },
  { id: 'composer', label: 'Composer' },
  { id: 'conformance', label: 'Conformance' },
];

export function InspectorPanel({ sessionId }: { sessionId: string }) {
  const { tab } = useSessionInspector(sessionId);
  const live = useQaLive(sessionId);
  const height = useLayout((s) => s.inspectorHeight);
  const panel = useRef<HTMLElement>(null);
  const startResize = (event: PointerEvent) => {
    const box = panel.current?.parentElement?.getBoundingClientRect();
    if (!box) return;
    event.preventDefault();
    const move = (e: globalThis.PointerEvent) => layout.setInspectorHeight((box.bottom - e.clientY) / box.height);
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const badge = (id: InspectorTab) => {
    if (id === 'faults' && live.pending.length) {
      return (
        <span className="badge attention" data-testid="inspector-manual-count">
          {live.pending.length}
        </span>
      );
    }
    if (id === 'conformance' && live.counts.error + live.counts.warning > 0) {
      return (
        <span className={`badge ${live.counts.error ? 'qa-badge-error' : 'qa-badge-warning'}`} data-testid="inspector-findings-count">
          {live.counts.error + live.counts.warning}
        </span>
      );
    }
    return null;
  };
  return (
    <section ref={panel} className="inspector-panel" style={{ flexBasis: `${Math.round(height * 100)}%` }} data-testid="inspector" data-session-id={sessionId} data-tab={tab} aria-label="Protocol inspector">
      <div className="inspector-resizer" role="separator" aria-orientation="horizontal" onPointerDown={startResize} data-testid="inspector-resizer" />
      <div className="inspector-tabs">
        <div className="inspector-tablist" role="tablist" aria-label="Inspector views">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              className={`inspector-tab${tab === t.id ? ' active' : ''}`}
              data-testid={`inspector-tab-${t.id}`}
              onClick={() => inspectorUi.setTab(sessionId, t.id)}
            >
              {t.label}
              {badge(t.id)}
            </button>
          ))}
        </div>
        <span className="spacer" />
        <button type="button" className="icon" title="Close the inspector" data-testid="inspector-close" onClick={() => layout.toggleInspector(sessionId)}>
          ✕
        </button>
      </div>
      <div className="inspector-body" role="tabpanel">
        {tab === 'messages' && <MessagesTab sessionId={sessionId} />}
        {tab === 'faults' && <FaultsTab sessionId={sessionId} />}
        {tab === 'composer' && <ComposerTab sessionId={sessionId} />}
        {tab === 'conformance' && <ConformanceTab sessionId={sessionId} />}
      </div>
    </section>
  );
}
