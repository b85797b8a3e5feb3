import { describe, expect, it } from 'vitest';
import { ElicitationQueue } from './elicitation-queue';

const view = (key: string, sessionId = 's1') => ({ key, sessionId, mode: 'form' as const, message: 'Name?' });

describe('ElicitationQueue', () => {
  it('resolves with the first answer only', async () => {
    const q = new ElicitationQueue();
    const answer = q.ask(view('k1'));
    expect(q.list('s1')).toHaveLength(1);
    expect(q.answer('k1', { action: 'accept', content: { name: 'Ada' } })).toBe(true);
    expect(q.answer('k1', { action: 'decline' })).toBe(false);
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(q.list()).toHaveLength(0);
  });

  it('cancels a session’s requests at once, and only that session’s', async () => {
    const q = new ElicitationQueue();
    const a = q.ask(view('a', 's1'));
    const b = q.ask(view('b', 's2'));
    q.cancelSession('s1');
    await expect(a).resolves.toEqual({ action: 'cancel' });
    expect(q.list()).toEqual([view('b', 's2')]);
    q.answer('b', { action: 'decline' });
    await expect(b).resolves.toEqual({ action: 'decline' });
  });

  it('answers cancel when the agent withdraws the request', async () => {
    const q = new ElicitationQueue();
    const controller = new AbortController();
    const answer = q.ask(view('k'), controller.signal);
    controller.abort();
    await expect(answer).resolves.toEqual({ action: 'cancel' });
  });

  it('tells listeners which session changed', async () => {
    const q = new ElicitationQueue();
    const seen: string[] = [];
    q.onChange((s) => seen.push(s));
    const p = q.ask(view('k', 's9'));
    q.answer('k', { action: 'decline' });
    await p;
    expect(seen).toEqual(['s9', 's9']);
  });
});
