/**
 * The window's large diffs (common/transcript/window-diffs.ts) as the session manager serves them:
 * previews in `session/patches` and `session/entries`, the texts by `diffTexts` — from the live
 * transcript, also once the tool call went to the spill file — and clear errors for a session that
 * is gone or ids that name no diff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../common/api/errors';
import type { ToolCallEntry } from '../../../common/transcript/model';
import { promptedManager } from './testing/prompted-manager';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const side = (tag: string) => Array.from({ length: 300 }, (_, i) => `export const ${tag}${i} = ${i};`).join('\n');
const big = { path: '/p/big.ts', oldText: side('a'), newText: side('b') };
const scenario = {
  defaultPrompt: {
    steps: [
      { toolCall: { toolCallId: 'big', title: 'Rewrite big.ts', kind: 'edit', status: 'in_progress', diff: big } },
      { toolCallUpdate: { toolCallId: 'big', status: 'completed' } },
      { toolCall: { toolCallId: 'small', title: 'Edit small.ts', kind: 'edit', status: 'completed', diff: { path: '/p/small.ts', oldText: 'a\n', newText: 'b\n' } } },
      // Enough entries after them for both tool calls to go to the spill file.
      ...Array.from({ length: 50 }, (_, i) => [{ thought: `thinking ${i}` }, { text: `answer ${i}` }]).flat(),
      { end: 'end_turn' },
    ],
  },
};

async function started() {
  const started = await promptedManager('acpwb-difftexts-', scenario, cleanups);
  started.manager.snapshot(started.sessionId); // flushes the last batch
  return started;
}

const apiCode = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : 'not an ApiError';
  }
  return undefined;
};

describe('SessionManager: the window’s large diffs', () => {
  it('sends previews in patches and entries, and the texts on request, from the spill file too', async () => {
    const { manager, sessionId, batches } = await started();
    const json = JSON.stringify(batches);
    expect(json).toContain('"diff_preview"');
    expect(json).not.toContain('export const b299 = 299;');
    expect(json).toContain('"newText":"b\\n"'); // the small diff whole

    const window = manager.entries(sessionId, 0, 500);
    const calls = window.items.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    const [bigCall, smallCall] = calls;
    expect(bigCall!.content[0]).toMatchObject({ type: 'diff_preview', path: big.path, oldLength: big.oldText.length, newLength: big.newText.length });
    expect(smallCall!.content[0]).toMatchObject({ type: 'diff', newText: 'b\n' });
    expect(JSON.stringify(window)).not.toContain('export const b299 = 299;');
    const live = (manager as unknown as { live: Map<string, { session: { live: { coldEntries: number } } }> }).live.get(sessionId)!.session.live;
    expect(live.coldEntries).toBeGreaterThan(2); // the tool calls are read back from the spill file
    expect(manager.diffTexts(sessionId, bigCall!.id, 0)).toEqual({ diff: { type: 'diff', ...big } });
    // The core's own transcript keeps the texts (they were read back from the spill file here).
    expect(JSON.stringify(manager.entries(sessionId, 0, 500))).not.toContain('export const b299');
  });

  it('answers not_found for a session that is gone, and for ids or indexes that name no diff', async () => {
    const { manager, sessionId } = await started();
    const entryId = manager.entries(sessionId, 0, 500).items.find((e) => e.kind === 'tool_call')!.id;
    const textId = manager.entries(sessionId, 0, 500).items.find((e) => e.kind === 'agent_message')!.id;
    expect(apiCode(() => manager.diffTexts(sessionId, entryId, 1))).toBe('not_found');
    expect(apiCode(() => manager.diffTexts(sessionId, textId, 0))).toBe('not_found');
    expect(apiCode(() => manager.diffTexts(sessionId, 'e999999', 0))).toBe('not_found');
    expect(apiCode(() => manager.diffTexts(sessionId, '__proto__', 0))).toBe('not_found');
    expect(apiCode(() => manager.diffTexts(sessionId, 'constructor', 0))).toBe('not_found');
    expect(apiCode(() => manager.diffTexts(sessionId, entryId, -1))).toBe('bad_params');
    expect(apiCode(() => manager.diffTexts(sessionId, entryId, 0.5))).toBe('bad_params');
    expect(apiCode(() => manager.diffTexts(sessionId, entryId, '0' as unknown as number))).toBe('bad_params');
    expect(apiCode(() => manager.diffTexts(sessionId, { id: entryId } as unknown as string, 0))).toBe('bad_params');
    expect(apiCode(() => manager.diffTexts('no-such-session', entryId, 0))).toBe('not_found');
    await manager.close(sessionId);
    expect(apiCode(() => manager.diffTexts(sessionId, entryId, 0))).toBe('not_found');
  });
});
