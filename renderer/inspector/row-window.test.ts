import { describe, expect, it } from 'vitest';
import type { InspectorRow, InspectorWindowResult } from '../../common/api/qa-types';
import { RowWindow } from './row-window';

const rows = (n: number, tag = ''): InspectorRow[] =>
  Array.from({ length: n }, (_, i) => ({ index: i, line: i + 2, t: i, dir: 'in', kind: 'notification', size: 1, preview: `${tag}${i}` }));

function fakeCore(list: InspectorRow[]) {
  const calls: Array<[number, number]> = [];
  const pending: Array<() => void> = [];
  const fetch = (offset: number, limit: number) =>
    new Promise<InspectorWindowResult>((resolve) => {
      calls.push([offset, limit]);
      pending.push(() => resolve({ items: list.slice(offset, offset + limit), offset, total: list.length, all: list.length, facets: { methods: [], updateKinds: [] } }));
    });
  const flush = async () => {
    while (pending.length) pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { calls, fetch, flush, list };
}

describe('RowWindow', () => {
  it('loads the pages the list shows, once', async () => {
    const core = fakeCore(rows(1000));
    let changes = 0;
    const w = new RowWindow(core.fetch, () => changes++, 100);
    w.reset(core.fetch);
    await core.flush();
    expect(w.total).toBe(1000);
    w.show(150, 260);
    w.show(150, 260);
    await core.flush();
    expect(core.calls).toEqual([
      [0, 100],
      [100, 100],
      [200, 100],
    ]);
    expect(w.row(255)?.preview).toBe('255');
    expect(w.row(750)).toBeUndefined();
    expect(changes).toBeGreaterThan(2);
  });

  it('refreshes the visible pages and the last one when rows are appended', async () => {
    const core = fakeCore(rows(150));
    const w = new RowWindow(core.fetch, () => undefined, 100);
    w.reset(core.fetch);
    await core.flush();
    w.show(0, 20);
    core.list.push(...rows(100, 'new').map((r, i) => ({ ...r, index: 150 + i })));
    core.calls.length = 0;
    w.refresh();
    await core.flush();
    expect(core.calls).toEqual([
      [0, 100],
      [100, 100],
    ]);
    expect(w.total).toBe(250);
  });

  it('drops answers of an older filter', async () => {
    const core = fakeCore(rows(10, 'old'));
    const w = new RowWindow(core.fetch, () => undefined, 100);
    w.reset(core.fetch);
    const other = fakeCore(rows(3, 'new'));
    w.reset(other.fetch);
    await core.flush();
    await other.flush();
    expect(w.total).toBe(3);
    expect(w.row(0)?.preview).toBe('new0');
  });
});
