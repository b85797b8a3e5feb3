/**
 * `session/find` through the core against the fixture agent (a real subprocess): a word in an
 * entry long since spilled out of memory (live-transcript.ts keeps the newest 64) is found, in
 * order with the others; bad words are refused with a clear error.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntriesResult, FindResult, LiveSessionSummary } from '../../../common/api/session-api-types';
import { createCore } from '../core';
import { fixtureArgs, tempBase } from '../workspace/testing/git-repo';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('session/find', () => {
  it('finds words in cold and hot entries alike, oldest first, ignoring case', async () => {
    const t = tempBase('acpwb-find-');
    cleanups.push(t.cleanup);
    const core = createCore({ host: 'test', paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') } });
    cleanups.push(() => core.dispose());
    core.connect(() => undefined);
    const call = <R>(name: string, params?: unknown) => core.handle(name, params) as Promise<R>;
    const steps: object[] = [];
    for (let i = 0; i < 150; i++) steps.push({ toolCall: { toolCallId: `t${i}`, title: i === 3 || i === 140 ? `Read notes ${i} about the Capybara` : `Read file ${i}`, kind: 'read' } }, { toolCallUpdate: { toolCallId: `t${i}`, status: 'completed' } });
    steps.push({ text: 'All done; the capybara is happy.' });
    const started = await call<LiveSessionSummary>('sessions/start', { agent: { command: process.execPath, args: fixtureArgs({ defaultPrompt: { steps } }) }, cwd: t.base, policy: 'all' });
    const sessionId = started.sessionId;
    expect(await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] })).toEqual({ stopReason: 'end_turn' });

    const found = await call<FindResult>('session/find', { sessionId, query: 'CAPYBARA' });
    expect(found.total).toBe(3);
    const all = await call<EntriesResult>('session/entries', { sessionId, offset: 0, limit: 1000 });
    expect(found.searched).toBe(all.total);
    const text = (id: string) => JSON.stringify(all.items.find((e) => e.id === id));
    expect(found.ids.map(text)).toEqual([expect.stringContaining('notes 3 about'), expect.stringContaining('notes 140 about'), expect.stringContaining('the capybara is happy')]);
    // The first match is far older than the entries kept in memory: it came back from the spill file.
    expect(all.items.findIndex((e) => e.id === found.ids[0])).toBeLessThan((all.total ?? 0) - 64);

    expect(await call<FindResult>('session/find', { sessionId, query: 'wombat' })).toEqual({ ids: [], total: 0, searched: all.total });
    await expect(call('session/find', { sessionId, query: 42 })).rejects.toMatchObject({ code: 'bad_params' });
    await expect(call('session/find', { sessionId: 'no-such-session', query: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
