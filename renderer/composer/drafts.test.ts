import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

describe('composer drafts', () => {
  let store: MemoryStorage;
  beforeEach(() => {
    vi.resetModules();
    vi.useFakeTimers();
    store = new MemoryStorage();
    vi.stubGlobal('localStorage', store);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('keeps text and attachments per session, saves the text a moment later, and a new window reads it back', async () => {
    const { drafts, useDrafts } = await import('./drafts');
    drafts.setText('s1', 'half a thought');
    drafts.setAttachments('s1', (a) => [...a, { id: 'a1', name: 'notes.md', block: { type: 'text', text: 'x' } }]);
    drafts.setText('s2', 'other pane');
    expect(store.getItem('acp-workbench.drafts.v1')).toBeNull();
    vi.advanceTimersByTime(300);
    expect(JSON.parse(store.getItem('acp-workbench.drafts.v1')!)).toEqual({ s1: 'half a thought', s2: 'other pane' });
    expect(useDrafts.getState().attachments.s1).toHaveLength(1);

    vi.resetModules();
    const again = await import('./drafts');
    expect(again.useDrafts.getState().text).toEqual({ s1: 'half a thought', s2: 'other pane' });
    expect(again.useDrafts.getState().attachments).toEqual({}); // attachments stay in memory only
  });

  it('forgets a draft once sent or emptied, keeps the 50 most recently edited, and leaves out huge texts', async () => {
    const { drafts, saveDrafts, useDrafts } = await import('./drafts');
    drafts.setText('s1', 'sent soon');
    drafts.setAttachments('s1', () => [{ id: 'a', name: 'n', block: { type: 'text', text: 'x' } }]);
    drafts.clear('s1');
    expect(useDrafts.getState()).toMatchObject({ text: {}, attachments: {} });
    for (let i = 0; i < 60; i++) drafts.setText(`p${i}`, `draft ${i}`);
    drafts.setText('p0', 'edited again');
    drafts.setText('p1', '');
    drafts.setText('big', 'x'.repeat(100_001));
    saveDrafts();
    const saved = JSON.parse(store.getItem('acp-workbench.drafts.v1')!) as Record<string, string>;
    expect(Object.keys(saved)).toHaveLength(50);
    expect(saved.p0).toBe('edited again');
    expect(saved.p1).toBeUndefined();
    expect(saved.p59).toBe('draft 59');
    expect(saved.p2).toBeUndefined(); // among the oldest
    expect(saved.big).toBeUndefined();
  });

  it('moves a draft to the session that replaced its own (a restart after a crash)', async () => {
    const { drafts, useDrafts } = await import('./drafts');
    drafts.setText('old', 'keep me');
    drafts.setAttachments('old', () => [{ id: 'a', name: 'n', block: { type: 'text', text: 'x' } }]);
    drafts.move('old', 'new');
    expect(useDrafts.getState().text).toEqual({ new: 'keep me' });
    expect(Object.keys(useDrafts.getState().attachments)).toEqual(['new']);
    drafts.move('none', 'other');
    expect(useDrafts.getState().text).toEqual({ new: 'keep me' });
  });

  it('starts empty from a corrupt or foreign saved value', async () => {
    store.setItem('acp-workbench.drafts.v1', '{not json');
    expect((await import('./drafts')).useDrafts.getState().text).toEqual({});
    vi.resetModules();
    store.setItem('acp-workbench.drafts.v1', JSON.stringify({ s1: 42, s2: 'ok' }));
    expect((await import('./drafts')).useDrafts.getState().text).toEqual({ s2: 'ok' });
  });
});
