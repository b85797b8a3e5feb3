import { describe, expect, it } from 'vitest';
import { createLightLayer, type LayerNode, type LayerRow } from './light-layer';

function fakeHost() {
  const inLayer = new Set<LayerNode>();
  let created = 0;
  const host = {
    create: (): LayerNode => (created++, { className: '', textContent: null, style: { transform: '', height: '' }, dataset: {} }),
    append: (node: LayerNode) => inLayer.add(node),
    remove: (node: LayerNode) => inLayer.delete(node),
  };
  return { host, inLayer, created: () => created };
}

const rows = (from: number, to: number, height = 25): LayerRow[] => Array.from({ length: to - from }, (_, i) => ({ key: `e${from + i}`, index: from + i, start: (from + i) * height, size: height }));
const describeRow = (key: string | number | bigint) => ({ kind: 'agent_message', text: `text of ${String(key)}` });
const byIndex = (nodes: Iterable<LayerNode>) => [...nodes].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));

describe('the light layer', () => {
  it('draws each row as one node with the classes, text, place and height of a light row', () => {
    const h = fakeHost();
    const layer = createLightLayer(h.host);
    layer.draw(rows(10, 13), describeRow);
    expect(layer.size).toBe(3);
    expect([...layer.keys()]).toEqual(['e10', 'e11', 'e12']);
    const [first] = byIndex(h.inLayer);
    expect(first).toEqual({ className: 'tx-row tx-row-light tx-light-agent_message', textContent: 'text of e10', style: { transform: 'translateY(250px)', height: '25px' }, dataset: { index: '10' } });
  });

  it('keeps the nodes of rows still drawn and gives the nodes of rows that left to rows that enter', () => {
    const h = fakeHost();
    const layer = createLightLayer(h.host);
    layer.draw(rows(100, 140), describeRow);
    const kept = [...h.inLayer].find((n) => n.dataset.index === '110')!;
    let described = 0;
    layer.draw(rows(86, 126), (key) => (described++, describeRow(key))); // 14 enter, 14 leave
    expect(h.created()).toBe(40); // no node made for the entering rows
    expect(h.inLayer.size).toBe(40);
    expect(described).toBe(14); // only entering rows are described
    expect(kept.dataset.index).toBe('110');
    expect(kept.textContent).toBe('text of e110');
    expect(byIndex(h.inLayer).map((n) => n.textContent)).toEqual(rows(86, 126).map((r) => `text of ${String(r.key)}`));
    expect(byIndex(h.inLayer).map((n) => n.style.transform)).toEqual(rows(86, 126).map((r) => `translateY(${r.start}px)`));
    expect(layer.has('e139')).toBe(false);
    expect(layer.has('e86')).toBe(true);
  });

  it('moves a kept row whose place changed, makes nodes when more rows enter than left, removes what is not drawn', () => {
    const h = fakeHost();
    const layer = createLightLayer(h.host);
    layer.draw(rows(0, 4), describeRow);
    layer.draw(rows(2, 10, 30), describeRow); // 2 kept (moved, taller), 2 reused, 4 new
    expect(h.created()).toBe(8);
    expect(byIndex(h.inLayer).map((n) => [n.dataset.index, n.style.transform, n.style.height])).toEqual(rows(2, 10, 30).map((r) => [String(r.index), `translateY(${r.start}px)`, '30px']));
    layer.draw(rows(8, 10, 30), describeRow);
    expect(h.inLayer.size).toBe(2);
    layer.clear();
    expect(h.inLayer.size).toBe(0);
    expect(layer.size).toBe(0);
  });
});
