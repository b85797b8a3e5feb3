import { useEffect, useState } from 'react';
import type { Entry } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { PreviewEntry } from './PreviewEntry';

/** Entries read at a time (a preview is not virtualized: a few hundred rows at most). */
export const HISTORY_PAGE = 300;

interface Shown {
  /** Index of the first entry shown. */
  offset: number;
  entries: Entry[];
}

/**
 * A recorded session's transcript in History's preview: a run of its entries, the first page at
 * first; "Show more" reads the next page, "Go to the end" the last one — the end of a long session
 * is often what a reader came for — and "Show earlier" the page before the first shown.
 */
export function HistoryTranscript({ id, total, first }: { id: string; total: number; first: Entry[] }) {
  const [shown, setShown] = useState<Shown>({ offset: 0, entries: first });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setShown({ offset: 0, entries: first });
    setError(null);
  }, [id, first]);

  const read = async (offset: number, limit: number, place: (page: Entry[]) => Shown) => {
    setBusy(true);
    setError(null);
    try {
      const page = await api().request('history/entries', { id, offset, limit });
      setShown(place(page.items));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const end = shown.offset + shown.entries.length;
  const more = () => read(end, HISTORY_PAGE, (page) => ({ offset: shown.offset, entries: [...shown.entries, ...page] }));
  const toEnd = () => {
    const offset = Math.max(0, total - HISTORY_PAGE);
    return read(offset, total - offset, (page) => ({ offset, entries: page }));
  };
  const earlier = () => {
    const offset = Math.max(0, shown.offset - HISTORY_PAGE);
    return read(offset, shown.offset - offset, (page) => ({ offset, entries: [...page, ...shown.entries] }));
  };
  const whole = shown.offset === 0 && end >= total;
  const n = (x: number) => x.toLocaleString('en-US');

  return (
    <section className="history-transcript" data-testid="history-transcript" data-count={total} data-offset={shown.offset} data-shown={shown.entries.length}>
      <h4>Transcript{whole ? '' : ` (entries ${n(shown.offset + 1)}–${n(end)} of ${n(total)})`}</h4>
      {shown.offset > 0 && (
        <p className="row">
          <button type="button" disabled={busy} onClick={() => void earlier()} data-testid="history-earlier">
            Show {n(Math.min(HISTORY_PAGE, shown.offset))} earlier
          </button>
        </p>
      )}
      {shown.entries.map((e) => (
        <PreviewEntry key={e.id} sessionId={id} entry={e} />
      ))}
      {end < total && (
        <p className="row">
          <button type="button" disabled={busy} onClick={() => void more()} data-testid="history-more">
            Show {n(Math.min(HISTORY_PAGE, total - end))} more
          </button>
          <button type="button" disabled={busy} onClick={() => void toEnd()} data-testid="history-end">
            Go to the end
          </button>
          <span className="muted small">{n(total - end)} entries after these</span>
        </p>
      )}
      {error && (
        <p className="error small" role="alert" data-testid="history-transcript-error">
          Could not read more of this session: {error}
        </p>
      )}
    </section>
  );
}
