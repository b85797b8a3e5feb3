import { describe, expect, it } from 'vitest';
import type { FileChange } from './model';
import { diffBase, groupFileChanges, isFullyUndone, undoPlan } from './group-changes';

let n = 0;
const change = (path: string, oldText: string | null | undefined, newText: string, over: Partial<FileChange> = {}): FileChange => ({
  id: `req:${++n}`,
  path,
  ...(oldText !== undefined ? { oldText } : {}),
  newText,
  t: n,
  turn: 1,
  ...over,
});

describe('grouping the agent writes per file', () => {
  it('folds writes of one path together, latest last, files in first-write order', () => {
    const a1 = change('/p/a', 'v0', 'v1');
    const b1 = change('/p/b', null, 'new');
    const a2 = change('/p/a', 'v1', 'v2');
    const groups = groupFileChanges([a1, b1, a2]);
    expect(groups.map((g) => g.path)).toEqual(['/p/a', '/p/b']);
    expect(groups[0]).toMatchObject({ changes: [a1, a2], original: 'v0', current: 'v2', failed: 0, lastT: a2.t, baseIndex: 0 });
    expect(groups[1]).toMatchObject({ original: null, current: 'new' });
    expect(diffBase(groups[1]!)).toEqual({ oldText: null, exact: true });
  });

  it('ignores failed writes for the diff sides but counts them', () => {
    const ok = change('/p/a', 'v0', 'v1');
    const failed = change('/p/a', 'v1', 'never written', { error: 'EACCES' });
    const [g] = groupFileChanges([ok, failed]);
    expect(g).toMatchObject({ original: 'v0', current: 'v1', failed: 1 });
  });

  it('starts the diff at the first write with a known old text when the original is unknown', () => {
    const unknown = change('/p/a', undefined, 'v1');
    const known = change('/p/a', 'v1', 'v2');
    const [g] = groupFileChanges([unknown, known]);
    expect(g!.original).toBeUndefined();
    expect(diffBase(g!)).toEqual({ oldText: 'v1', exact: false });
    const [only] = groupFileChanges([change('/p/c', undefined, 'x')]);
    expect(diffBase(only!)).toEqual({ oldText: '', exact: false });
  });

  it('undoes latest first, skipping failed and already undone writes', () => {
    const w1 = change('/p/a', 'v0', 'v1');
    const w2 = change('/p/a', 'v1', 'x', { error: 'EACCES' });
    const w3 = change('/p/a', 'v1', 'v2');
    const [g] = groupFileChanges([w1, w2, w3]);
    expect(undoPlan(g!, new Set()).map((c) => c.id)).toEqual([w3.id, w1.id]);
    expect(undoPlan(g!, new Set([w3.id])).map((c) => c.id)).toEqual([w1.id]);
    expect(isFullyUndone(g!, new Set([w3.id]))).toBe(false);
    expect(isFullyUndone(g!, new Set([w3.id, w1.id]))).toBe(true);
    expect(groupFileChanges([])).toEqual([]);
  });
});
