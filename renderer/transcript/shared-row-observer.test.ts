import { describe, expect, it } from 'vitest';
import { createSharedRowObserver } from './shared-row-observer';

type Row = Element & { isConnected: boolean; index: number };
const row = (index: number, isConnected = true) => ({ index, isConnected }) as unknown as Row;
const entry = (target: Row, height: number) => ({ target, borderBoxSize: [{ blockSize: height, inlineSize: 100 }] }) as unknown as ResizeObserverEntry;

/** A stand-in for the virtualizer's members the observer drives, logging what it is asked. */
function pane(name: string, log: string[], rendering: () => boolean) {
  const p = {
    observer: undefined as unknown as { observe(t: Element): void; unobserve(t: Element): void; disconnect(): void },
    elementsCache: new Map<unknown, Element>(),
    _resizeBatch: null as { sync: boolean; notify?: boolean } | null,
    options: { measureElement: (node: Element, e: ResizeObserverEntry | undefined) => e?.borderBoxSize[0]?.blockSize ?? 0 },
    indexFromElement: (node: Element) => (node as Row).index,
    isIndexInRange: (index: number) => index < 100,
    shouldMeasureDuringScroll: () => true,
    resizeItem(index: number, size: number) {
      log.push(`${name} resize ${index}=${size}${p._resizeBatch ? ' batched' : ''}`);
      if (p._resizeBatch) {
        p._resizeBatch.notify = true;
        p._resizeBatch.sync ||= size > 50;
      }
    },
    notify: (sync: boolean) => log.push(`${name} notify ${sync}${rendering() ? ' in commit' : ''}`),
    _noteClampMax: () => log.push(`${name} clamp`),
    _flushHoldIfReady: () => log.push(`${name} hold`),
    _retryClampedAdjustment: () => log.push(`${name} retry`),
    measureElement: (node: Element | null) => log.push(`${name} measure ${node === null ? 'null' : 'row'}`),
  };
  return p;
}

function harness() {
  const log: string[] = [];
  const frames: (() => void)[] = [];
  let callback: ((entries: readonly ResizeObserverEntry[]) => void) | undefined;
  const observed = new Set<Element>();
  let inCommit = false;
  const shared = createSharedRowObserver(
    (cb) => {
      callback = cb;
      return { observe: (t) => observed.add(t), unobserve: (t) => observed.delete(t) };
    },
    (apply) => {
      log.push('commit{');
      inCommit = true;
      apply();
      inCommit = false;
      log.push('}');
    },
    (run) => frames.push(run),
  );
  const rendering = () => inCommit && shared.applying;
  return { log, frames, observed, shared, deliver: (entries: ResizeObserverEntry[]) => callback!(entries), pane: (name: string) => pane(name, log, rendering) };
}

describe('the panes’ shared row observer', () => {
  it('takes every pane’s sizes first, then notifies them all in one commit, then runs each pane’s checks', () => {
    const h = harness();
    const a = h.pane('a');
    const b = h.pane('b');
    h.shared.attach(a);
    h.shared.attach(b);
    const a1 = row(1);
    const a2 = row(2);
    const b7 = row(7);
    a.observer.observe(a1);
    b.observer.observe(b7);
    a.observer.observe(a2);
    expect(h.observed).toEqual(new Set([a1, b7, a2]));
    h.deliver([entry(a1, 40), entry(b7, 80), entry(a2, 30)]);
    expect(h.log).toEqual([
      'a resize 1=40 batched',
      'a resize 2=30 batched',
      'b resize 7=80 batched',
      'commit{',
      'a notify false in commit',
      'b notify true in commit',
      '}',
      'a clamp',
      'a hold',
      'a retry',
      'a measure null',
      'b clamp',
      'b hold',
      'b retry',
      'b measure null',
    ]);
    expect(a._resizeBatch).toBeNull();
    expect(h.shared.applying).toBe(false);
  });

  it('commits nothing when no pane’s size changed, and forgets rows that left the page', () => {
    const h = harness();
    const a = h.pane('a');
    h.shared.attach(a);
    const gone = row(3, false);
    const outOfRange = row(500);
    a.observer.observe(gone);
    a.observer.observe(outOfRange);
    a.elementsCache.set('k3', gone);
    h.deliver([entry(gone, 20), entry(outOfRange, 20)]);
    expect(h.log).toEqual([]);
    expect(a.elementsCache.size).toBe(0);
    expect(h.observed).toEqual(new Set([outOfRange]));
  });

  it('observes a row mounted while it delivers from the next frame, and a pane’s disconnect drops only its rows', () => {
    const h = harness();
    const a = h.pane('a');
    const b = h.pane('b');
    h.shared.attach(a);
    h.shared.attach(b);
    const a1 = row(1);
    const b1 = row(1);
    const mounted = row(2);
    a.observer.observe(a1);
    b.observer.observe(b1);
    a.notify = () => {
      a.observer.observe(mounted);
      return 0;
    }; // the commit mounts a row
    h.deliver([entry(a1, 60)]);
    expect(h.observed.has(mounted)).toBe(false);
    expect(h.frames).toHaveLength(1);
    h.frames.shift()!();
    expect(h.observed.has(mounted)).toBe(true);
    a.observer.disconnect();
    expect(h.observed).toEqual(new Set([b1]));
    h.deliver([entry(a1, 10)]); // a late report for a disconnected pane
    expect(h.log.filter((l) => l.startsWith('a resize'))).toEqual(['a resize 1=60 batched']);
  });
});
