/**
 * What a window makes of the `session/patches` events the session manager emits: a streamed
 * message's chunks reach it joined (common/transcript/joined-text.ts), and the transcript it builds
 * from them is the one the core holds, as `session/entries` serves it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionPatchesEvent } from '../../../common/api/session-api-types';
import { TranscriptApplier } from '../../../common/transcript/apply-patches';
import { emptyTranscript } from '../../../common/transcript/model';
import { promptedManager } from './testing/prompted-manager';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Chunks with what JSON escapes: quotes, backslashes, newlines, control characters, a lone surrogate. */
const chunk = (i: number) => [`${i} plain words `, `"${i}" `, `back\\slash ${i} `, `line ${i}\n`, `\u0001\u001f${i}`, `é😀${i}`, `\ud800${i}`][i % 7]!;
const CHUNKS = 300;
const scenario = {
  defaultPrompt: {
    steps: [
      ...Array.from({ length: CHUNKS }, (_, i) => ({ text: chunk(i) })),
      { thought: 'a thought between two messages' },
      ...Array.from({ length: 50 }, (_, i) => ({ text: chunk(i) })),
      { end: 'end_turn' },
    ],
  },
};

describe('the window’s patches', () => {
  it('bring a streamed message in fewer patches, and build the transcript the core holds', async () => {
    const { manager, sessionId, batches } = await promptedManager('acpwb-windowpatches-', scenario, cleanups);
    const { items } = manager.entries(sessionId, 0, 1000); // flushes the last batch

    // As the window gets them: through JSON, applied batch by batch as the renderer's store does.
    const window = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
    for (const event of batches.filter((b) => b.sessionId === sessionId)) window.apply(JSON.parse(JSON.stringify(event)).patches);
    const built = window.snapshot();
    expect(built.ids.map((id) => built.entries[id])).toEqual(JSON.parse(JSON.stringify(items)));
    const messages = items.filter((e) => e.kind === 'agent_message');
    expect(messages.map((m) => (m.content[0] as { text: string }).text)).toEqual([
      Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join(''),
      Array.from({ length: 50 }, (_, i) => chunk(i)).join(''),
    ]);

    // Fewer text patches than chunks: the runs of each batch went as one.
    const texts = batches.flatMap((b) => b.patches).filter((p) => p.op === 'append-text').length;
    expect(texts).toBeLessThan(CHUNKS + 50 - 2 - 10);
  });
});
