import { useEffect, useState } from 'react';
import type { Entry } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { PreviewEntry } from './PreviewEntry';
import { relativesUi, useRelatives } from './relatives-store';

const LIMIT = 2000;

/** Index of the entry where the two relatives part: the parent's user message N, or its end. */
function forkIndex(entries: Entry[], beforeMessage: number | undefined): number {
  if (beforeMessage === undefined) return entries.length;
  let n = 0;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.kind === 'user_message' && ++n === beforeMessage) return i;
  return entries.length;
}

/** A session and its parent read-only side by side, each column starting at the fork point. */
export function RelativesView() {
  const request = useRelatives((s) => s.open);
  const [columns, setColumns] = useState<Array<{ id: string; title: string; entries: Entry[]; from: number }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!request) return;
    setColumns(null);
    setError(null);
    Promise.all(
      [request.left, request.right].map(async (id) => {
        const [preview, window] = await Promise.all([api().request('history/preview', { id }), api().request('history/entries', { id, limit: LIMIT })]);
        return { id, title: preview.session.title, entries: window.items };
      }),
    )
      .then(([parent, child]) => {
        const cut = forkIndex(parent!.entries, request.beforeMessage);
        // The child holds the parent's prefix (or is primed with it): its own part starts after the
        // first workbench notice that says how it was forked, else after the copied prefix.
        const notice = child!.entries.findIndex((e) => e.kind === 'notice');
        setColumns([
          { ...parent!, from: cut },
          { ...child!, from: notice >= 0 ? notice : Math.min(cut, child!.entries.length) },
        ]);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [request]);
  if (!request) return null;
  return (
    <div className="relatives" role="dialog" aria-label="Relatives side by side" data-testid="relatives-view" onKeyDown={(e) => e.key === 'Escape' && relativesUi.close()}>
      <header className="history-header">
        <h2>Side by side from the fork point</h2>
        <span className="spacer" />
        <button type="button" onClick={() => relativesUi.close()} data-testid="relatives-close" autoFocus>
          ✕
        </button>
      </header>
      {error && <p className="error">{error}</p>}
      <div className="relatives-columns">
        {columns?.map((c, i) => (
          <section key={c.id} className="relatives-column" data-testid="relatives-column" data-session-id={c.id}>
            <h3>
              {i === 0 ? 'Parent' : 'Fork'}: {c.title || c.id}
            </h3>
            {c.from > 0 && <p className="muted small">{c.from} earlier entries in common are not shown.</p>}
            <ColumnEntries sessionId={c.id} entries={c.entries.slice(c.from)} />
          </section>
        ))}
      </div>
    </div>
  );
}

function ColumnEntries({ sessionId, entries }: { sessionId: string; entries: Entry[] }) {
  return (
    <div className="relatives-entries" data-testid="relatives-entries">
      {entries.length === 0 ? <p className="muted small">Nothing after the fork point.</p> : entries.map((e) => <PreviewEntry key={e.id} sessionId={sessionId} entry={e} />)}
    </div>
  );
}
