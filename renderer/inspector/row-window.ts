/**
 * The renderer's window over a connection's inspector rows for one filter: pages of rows fetched
 * as the list scrolls to them (the contract is ranged: never the whole list), and refreshed when
 * the core says rows were appended (visible pages again, so a request row gets its latency when
 * its response arrives). A new filter starts a new generation; late answers of older ones are
 * dropped.
 */
import type { InspectorWindowResult } from '../../common/api/qa-types';

export type FetchWindow = (offset: number, limit: number) => Promise<InspectorWindowResult>;

export const PAGE_SIZE = 200;

export class RowWindow {
  total = 0;
  all = 0;
  facets: InspectorWindowResult['facets'] = { methods: [], updateKinds: [] };
  loaded = false;
  error: string | null = null;
  /** Bumped on every change, for React to re-render. */
  version = 0;
  private pages = new Map<number, InspectorWindowResult['items']>();
  private readonly stale = new Set<number>();
  private readonly inflight = new Set<number>();
  private readonly again = new Set<number>();
  private generation = 0;
  private visible: [number, number] = [0, 0];

  constructor(
    private fetchWindow: FetchWindow,
    private readonly onChange: () => void,
    readonly pageSize = PAGE_SIZE,
  ) {}

  row(i: number): InspectorWindowResult['items'][number] | undefined {
    return this.pages.get(Math.floor(i / this.pageSize))?.[i % this.pageSize];
  }

  /** The list shows rows `from`..`to` (inclusive): load the pages they are on. */
  show(from: number, to: number): void {
    this.visible = [Math.max(0, from), Math.max(0, to)];
    for (const p of this.pagesOf(from, to)) if ((!this.pages.has(p) || this.stale.has(p)) && !this.inflight.has(p)) this.load(p);
  }

  /** Rows were appended: everything cached may be out of date; the visible pages and the last one are fetched again. */
  refresh(): void {
    for (const p of this.pages.keys()) this.stale.add(p);
    const wanted = new Set(this.pagesOf(...this.visible));
    wanted.add(Math.max(0, Math.floor((this.total - 1) / this.pageSize)));
    for (const p of wanted) this.load(p);
  }

  /** A new filter: drop everything and start from the first page. */
  reset(fetchWindow: FetchWindow): void {
    this.fetchWindow = fetchWindow;
    this.generation++;
    this.pages = new Map();
    this.stale.clear();
    this.inflight.clear();
    this.again.clear();
    this.total = 0;
    this.loaded = false;
    this.error = null;
    this.changed();
    this.load(0);
  }

  private pagesOf(from: number, to: number): number[] {
    const out: number[] = [];
    const last = Math.max(0, Math.floor((Math.max(this.total, 1) - 1) / this.pageSize));
    for (let p = Math.floor(Math.max(0, from) / this.pageSize); p <= Math.min(last, Math.floor(Math.max(0, to) / this.pageSize)); p++) out.push(p);
    return out;
  }

  private load(page: number): void {
    if (this.inflight.has(page)) {
      this.again.add(page); // an answer in flight may predate what we now know
      return;
    }
    this.inflight.add(page);
    const generation = this.generation;
    this.fetchWindow(page * this.pageSize, this.pageSize).then(
      (w) => {
        if (generation !== this.generation) return;
        this.inflight.delete(page);
        this.pages.set(page, w.items);
        this.stale.delete(page);
        this.total = w.total ?? w.items.length;
        this.all = w.all;
        this.facets = w.facets;
        this.loaded = true;
        this.error = null;
        this.changed();
        if (this.again.delete(page)) this.load(page);
      },
      (err: unknown) => {
        if (generation !== this.generation) return;
        this.inflight.delete(page);
        this.again.delete(page);
        this.error = err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message) : String(err);
        this.changed();
      },
    );
  }

  private changed(): void {
    this.version++;
    this.onChange();
  }
}
