import { useRef } from 'react';
import { layout, useLayout } from '../state/layout-store';
import { SessionPane } from './SessionPane';

/** Sessions side by side, with drag handles between them to resize. */
export function PaneArea({ panes }: { panes: string[] }) {
  const widths = useLayout((s) => s.widths);
  const area = useRef<HTMLDivElement>(null);
  const startResize = (left: string, right: string, event: React.PointerEvent) => {
    const box = area.current?.getBoundingClientRect();
    if (!box) return;
    event.preventDefault();
    const total = panes.reduce((n, id) => n + (widths[id] ?? 1), 0);
    const pxPerUnit = box.width / total;
    const startX = event.clientX;
    const a = widths[left] ?? 1;
    const b = widths[right] ?? 1;
    const move = (e: PointerEvent) => {
      const delta = (e.clientX - startX) / pxPerUnit;
      const na = Math.max(0.2, a + delta);
      const nb = Math.max(0.2, b - (na - a));
      layout.setWidth(left, na);
      layout.setWidth(right, nb);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return (
    <div className="pane-area" ref={area} data-testid="pane-area" data-count={panes.length}>
      {panes.map((id, i) => (
        <div key={id} className="pane-slot" style={{ flexGrow: widths[id] ?? 1 }}>
          <SessionPane sessionId={id} index={i} />
          {i < panes.length - 1 && (
            <div
              className="pane-resizer"
              role="separator"
              aria-orientation="vertical"
              data-testid="pane-resizer"
              onPointerDown={(e) => startResize(id, panes[i + 1]!, e)}
            />
          )}
        </div>
      ))}
    </div>
  );
}
