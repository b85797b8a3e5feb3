/**
 * Light rows drawn without React while a pane keeps scrolling fast. Once a pane scrolls fast its
 * new rows are light anyway (light-rows.ts), yet each frame still re-rendered the pane: React built,
 * compared and committed its ≈ 45 rows, created the ≈ 14 entering rows' nodes and removed the ≈ 14
 * leaving ones — most of the main thread's script time per frame with 4 panes (issue #11, scrolling
 * long transcripts). Here the pane draws those frames itself, in a layer React renders empty: one
 * node per light row, positioned like the row React would draw (same classes, same box), and the
 * node of a row that left is given to a row that enters (its class, text and place set), so a
 * steady fast scroll creates and removes no nodes. React's next render of the pane (the pane is
 * still, a slow step, a streamed entry) draws those rows light itself and the layer is emptied in
 * the same commit.
 */

type Key = string | number | bigint;

/** The part of a DOM element the layer writes (an `HTMLElement`; a plain object in tests). */
export interface LayerNode {
  className: string;
  textContent: string | null;
  style: { transform: string; height: string };
  dataset: Record<string, string | undefined>;
}

/** Where the layer's nodes live: made, put into the layer, taken out. */
export interface LayerHost<N extends LayerNode> {
  create(): N;
  append(node: N): void;
  remove(node: N): void;
}

/** A row to draw: the virtualizer's item (its key, index, place and height). */
export interface LayerRow {
  key: Key;
  index: number;
  start: number;
  size: number;
}

export interface LightLayer {
  /**
   * Draws exactly `rows` (the rows already drawn keep their node; a row that enters takes the node
   * of one that left, else a new one). `describe` gives an entering row's kind and text.
   */
  draw(rows: readonly LayerRow[], describe: (key: Key) => { kind: string; text: string }): void;
  /** The keys drawn now. */
  keys(): IterableIterator<Key>;
  has(key: Key): boolean;
  readonly size: number;
  /** Takes every node out of the layer. */
  clear(): void;
}

interface Drawn<N> {
  node: N;
  index: number;
  start: number;
  size: number;
}

export function createLightLayer<N extends LayerNode>(host: LayerHost<N>): LightLayer {
  let drawn = new Map<Key, Drawn<N>>();
  const place = (d: Drawn<N>, row: LayerRow) => {
    if (d.start !== row.start) d.node.style.transform = `translateY(${(d.start = row.start)}px)`;
    if (d.size !== row.size) d.node.style.height = `${(d.size = row.size)}px`;
    if (d.index !== row.index) d.node.dataset.index = String((d.index = row.index));
  };
  return {
    draw(rows, describe) {
      const next = new Map<Key, Drawn<N>>();
      const entering: LayerRow[] = [];
      for (const row of rows) {
        const kept = drawn.get(row.key);
        if (kept) {
          drawn.delete(row.key);
          next.set(row.key, kept);
          place(kept, row);
        } else entering.push(row);
      }
      const free = drawn.values(); // the nodes of rows that left
      for (const row of entering) {
        const reused = free.next();
        const d: Drawn<N> = reused.done ? { node: host.create(), index: NaN, start: NaN, size: NaN } : reused.value;
        if (reused.done) host.append(d.node);
        const { kind, text } = describe(row.key);
        d.node.className = `tx-row tx-row-light tx-light-${kind}`;
        d.node.textContent = text;
        place(d, row);
        next.set(row.key, d);
      }
      for (let left = free.next(); !left.done; left = free.next()) host.remove(left.value.node);
      drawn = next;
    },
    keys: () => drawn.keys(),
    has: (key) => drawn.has(key),
    get size() {
      return drawn.size;
    },
    clear() {
      for (const d of drawn.values()) host.remove(d.node);
      drawn = new Map();
    },
  };
}
