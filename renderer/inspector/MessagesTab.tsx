/**
 * The message list of a session's connection: filters (direction, kind, method, update kind),
 * text search, pins, export; a virtualized list (fixed-height rows, fetched by windows) that
 * follows new messages while it is at the end; the selected message in full beside or below it.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { INSPECTOR_KINDS, type InspectorDir, type InspectorRow } from '../../common/api/qa-types';
import { api, errorText } from '../api/api-context';
import { downloadText } from '../app/download-text';
import { DIR_ARROW, DIR_TITLE, formatId, formatLatency, formatSize, formatTime, isFiltered, KIND_LABEL, methodLabel, toggleIn, toQuery } from './format';
import { inspectorUi, useSessionInspector } from './inspector-ui';
import { MessageDetail } from './MessageDetail';
import type { RowWindow } from './row-window';
import { useRowWindow } from './use-row-window';
import { counted } from '../../common/text/counted';

const ROW_HEIGHT = 22;
const END_THRESHOLD = 8;

export function MessagesTab({ sessionId }: { sessionId: string }) {
  const ui = useSessionInspector(sessionId);
  const { filter, pins } = ui;
  const query = useMemo(() => toQuery(filter, pins), [filter, filter.pinnedOnly ? pins : null]);
  const rows = useRowWindow(sessionId, query);
  return (
    <div className="insp-messages">
      <Toolbar sessionId={sessionId} rows={rows} />
      <div className="insp-split">
        <MessageList sessionId={sessionId} rows={rows} queryKey={JSON.stringify(query)} />
        <MessageDetail sessionId={sessionId} index={ui.selected} pinned={ui.selected !== null && pins.includes(ui.selected)} version={rows.version} />
      </div>
    </div>
  );
}

function Toolbar({ sessionId, rows }: { sessionId: string; rows: RowWindow }) {
  const { filter, pins } = useSessionInspector(sessionId);
  const set = (change: Parameters<typeof inspectorUi.setFilter>[1]) => inspectorUi.setFilter(sessionId, change);
  const [search, setSearch] = useState(filter.search);
  const [exporting, setExporting] = useState<string | null>(null);
  useEffect(() => setSearch(filter.search), [filter.search]);
  useEffect(() => {
    if (search === filter.search) return;
    const timer = setTimeout(() => set({ search }), 200);
    return () => clearTimeout(timer);
  }, [search]);
  const exportRows = async (which: 'filtered' | 'pinned') => {
    setExporting(null);
    try {
      const q = which === 'pinned' ? { scope: 'connection' as const, indexes: pins } : toQuery(filter, pins);
      const out = await api().request('inspector/export', { sessionId, ...q });
      downloadText(which === 'pinned' ? out.fileName.replace(/\.jsonl$/, '-pinned.jsonl') : out.fileName, out.text, 'application/x-ndjson');
      setExporting(`Exported ${counted(out.count, 'message')}`);
    } catch (err) {
      setExporting(errorText(err));
    }
  };
  const dirs: InspectorDir[] = ['out', 'in'];
  return (
    <div className="insp-toolbar" data-testid="inspector-toolbar">
      <div className="insp-toolbar-row">
        <input
          type="search"
          className="insp-search"
          placeholder="Search messages…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && set({ search })}
          data-testid="inspector-search"
          aria-label="Search messages"
          spellCheck={false}
        />
        <span className="insp-chips" role="group" aria-label="Direction">
          {dirs.map((d) => (
            <button key={d} type="button" className="insp-chip" aria-pressed={filter.dirs.includes(d)} title={`Only messages ${DIR_TITLE[d]}`} data-testid={`inspector-filter-dir-${d}`} onClick={() => set({ dirs: toggleIn(filter.dirs, d) })}>
              {DIR_ARROW[d]} {d}
            </button>
          ))}
        </span>
        <span className="insp-chips" role="group" aria-label="Kind">
          {INSPECTOR_KINDS.map((k) => (
            <button key={k} type="button" className="insp-chip" aria-pressed={filter.kinds.includes(k)} title={`Only ${k} lines`} data-testid={`inspector-filter-kind-${k}`} onClick={() => set({ kinds: toggleIn(filter.kinds, k) })}>
              {KIND_LABEL[k]}
            </button>
          ))}
        </span>
      </div>
      <div className="insp-toolbar-row">
        <select value={filter.method} onChange={(e) => set({ method: e.target.value })} data-testid="inspector-filter-method" aria-label="Method">
          <option value="">All methods</option>
          {withCurrent(rows.facets.methods, filter.method).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select value={filter.updateKind} onChange={(e) => set({ updateKind: e.target.value })} data-testid="inspector-filter-update" aria-label="Update kind">
          <option value="">All update kinds</option>
          {withCurrent(rows.facets.updateKinds, filter.updateKind).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select value={filter.scope} onChange={(e) => set({ scope: e.target.value as 'session' | 'connection' })} data-testid="inspector-scope" aria-label="Scope" title="This session's messages, or every message of its agent connection">
          <option value="session">This session</option>
          <option value="connection">Whole connection</option>
        </select>
        <button type="button" className="insp-chip" aria-pressed={filter.pinnedOnly} data-testid="inspector-pinned-only" onClick={() => set({ pinnedOnly: !filter.pinnedOnly })} title="Only pinned messages">
          ★ {pins.length}
        </button>
        {isFiltered(filter) && (
          <button type="button" className="icon" data-testid="inspector-clear-filters" onClick={() => inspectorUi.clearFilter(sessionId)} title="Show every message">
            Clear
          </button>
        )}
        <span className="spacer" />
        <span className="muted small" data-testid="inspector-count" data-total={rows.total} data-all={rows.all}>
          {rows.total === rows.all ? `${rows.all} messages` : `${rows.total} of ${rows.all}`}
        </span>
        <button type="button" onClick={() => void exportRows('filtered')} data-testid="inspector-export" title="Download the listed messages as JSONL (one trace record per line)">
          Export
        </button>
        <button type="button" onClick={() => void exportRows('pinned')} disabled={pins.length === 0} data-testid="inspector-export-pinned" title="Download the pinned messages as JSONL">
          Export ★
        </button>
        {exporting && (
          <span className="muted small" data-testid="inspector-export-status" role="status">
            {exporting}
          </span>
        )}
      </div>
    </div>
  );
}

/** The facet list, keeping the current choice even before the facets arrive. */
const withCurrent = (list: string[], current: string) => (current && !list.includes(current) ? [current, ...list] : list);

function MessageList({ sessionId, rows, queryKey }: { sessionId: string; rows: RowWindow; queryKey: string }) {
  const { selected, pins, jump, filter } = useSessionInspector(sessionId);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    // The sticky column header sits over the first ROW_HEIGHT pixels.
    paddingStart: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
    followOnAppend: true,
    scrollEndThreshold: END_THRESHOLD,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => rows.show(first, last), [rows, first, last, rows.total, rows.version]);

  // Open at the latest message, once the first window is here (unless a jump is pending).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !rows.loaded) return;
    opened.current = true;
    if (!jump && selected === null && rows.total > 0) virtualizer.scrollToIndex(rows.total - 1, { align: 'end' });
  }, [rows.loaded]);

  // Jump to a row (evidence of a finding, a request's response): find where the filter puts it;
  // when the filter hides it, widen the filter and try again.
  const handled = useRef(0);
  useEffect(() => {
    if (!jump || handled.current === jump.seq) return;
    let cancelled = false;
    void api()
      .request('inspector/window', { sessionId, ...(JSON.parse(queryKey) as object), offset: 0, limit: 0, locate: jump.index })
      .then((w) => {
        if (cancelled) return;
        if (w.located === null || w.located === undefined) {
          if (isFiltered({ ...filter, scope: 'session' })) inspectorUi.clearFilter(sessionId);
          else if (filter.scope === 'session') inspectorUi.setFilter(sessionId, { scope: 'connection' });
          else handled.current = jump.seq;
          return;
        }
        handled.current = jump.seq;
        setCursor(w.located);
        virtualizer.scrollToIndex(w.located, { align: 'center' });
      });
    return () => {
      cancelled = true;
    };
  }, [jump?.seq, queryKey]);

  const atEnd = rows.total === 0 || virtualizer.isAtEnd(END_THRESHOLD);
  const move = (delta: number) => {
    const from = cursor ?? (delta > 0 ? first - 1 : last + 1);
    const next = Math.max(0, Math.min(rows.total - 1, from + delta));
    const row = rows.row(next);
    setCursor(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (row) inspectorUi.select(sessionId, row.index);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'End') {
      e.preventDefault();
      virtualizer.scrollToIndex(rows.total - 1, { align: 'end' });
    } else if (e.key === 'Home') {
      e.preventDefault();
      virtualizer.scrollToIndex(0, { align: 'start' });
    }
  };

  return (
    <div className="insp-list" data-testid="inspector-list" data-total={rows.total} data-all={rows.all} data-loaded={rows.loaded ? 'true' : 'false'} data-following={atEnd ? 'true' : 'false'}>
      <div ref={scrollRef} className="insp-scroll" tabIndex={0} role="grid" aria-label="Messages" aria-rowcount={rows.total} onKeyDown={onKeyDown} data-testid="inspector-scroll">
        <div className="insp-row insp-head" aria-hidden="true">
          <span className="c-time">time s</span>
          <span className="c-dir" />
          <span className="c-kind">kind</span>
          <span className="c-method">method / update</span>
          <span className="c-id">id</span>
          <span className="c-size">size</span>
          <span className="c-latency">latency</span>
          <span className="c-preview">content</span>
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows.row(item.index);
            return (
              <div key={item.key} className="insp-slot" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                {row ? (
                  <Row
                    row={row}
                    selected={row.index === selected}
                    pinned={pins.includes(row.index)}
                    onSelect={() => {
                      setCursor(item.index);
                      inspectorUi.select(sessionId, row.index);
                    }}
                  />
                ) : (
                  <div className="insp-row insp-placeholder" />
                )}
              </div>
            );
          })}
        </div>
        {rows.loaded && rows.total === 0 && (
          <p className="muted insp-empty" data-testid="inspector-empty">
            {rows.all === 0 ? 'No messages yet.' : 'No message matches the filter.'}
          </p>
        )}
        {rows.error && (
          <p className="error insp-empty" role="alert">
            {rows.error}
          </p>
        )}
      </div>
      {!atEnd && (
        <button type="button" className="insp-jump" data-testid="inspector-follow" onClick={() => virtualizer.scrollToIndex(rows.total - 1, { align: 'end' })}>
          ↓ Latest
        </button>
      )}
    </div>
  );
}

function Row({ row, selected, pinned, onSelect }: { row: InspectorRow; selected: boolean; pinned: boolean; onSelect: () => void }) {
  return (
    <div
      role="row"
      aria-selected={selected}
      className={`insp-row kind-${row.kind}${selected ? ' selected' : ''}${row.error ? ' has-error' : ''}`}
      data-testid="inspector-row"
      data-index={row.index}
      data-kind={row.kind}
      data-dir={row.dir}
      data-method={row.method ?? ''}
      data-update-kind={row.updateKind ?? ''}
      data-selected={selected ? 'true' : 'false'}
      data-pinned={pinned ? 'true' : 'false'}
      onClick={onSelect}
    >
      <span role="gridcell" className="c-time">{formatTime(row.t)}</span>
      <span role="gridcell" className={`c-dir dir-${row.dir}`} title={DIR_TITLE[row.dir]}>
        {DIR_ARROW[row.dir]}
      </span>
      <span role="gridcell" className={`c-kind insp-kind kind-${row.kind}`}>{KIND_LABEL[row.kind]}</span>
      <span role="gridcell" className="c-method" title={row.method}>
        {pinned && <span className="insp-pinmark">★</span>}
        {methodLabel(row)}
        {row.unchecked && <span className="insp-tag">unchecked</span>}
      </span>
      <span role="gridcell" className="c-id">{formatId(row.id)}</span>
      <span role="gridcell" className="c-size">{formatSize(row.size)}</span>
      <span role="gridcell" className="c-latency" data-testid="inspector-latency">
        {row.kind === 'response' || row.kind === 'request' ? formatLatency(row.latency) : ''}
      </span>
      <span role="gridcell" className="c-preview">{row.error ? <span className="insp-err">{row.preview}</span> : row.preview}</span>
    </div>
  );
}
