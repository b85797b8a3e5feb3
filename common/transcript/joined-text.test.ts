import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from './acp-types';
import { applyPatches, TranscriptApplier } from './apply-patches';
import { joinAppendedText } from './joined-text';
import { emptyTranscript, type AgentMessageEntry, type Transcript } from './model';
import type { Patch } from './patches';
import { deepFreeze, toolCallEntry } from './test-entries';

const message = (id: string, content: ContentBlock[]): AgentMessageEntry => ({ id, kind: 'agent_message', t: 1, turn: 1, content });
const image: ContentBlock = { type: 'image', data: 'AA==', mimeType: 'image/png' };

/** Streamed text as agents send it: empty chunks, newlines, quotes, backslashes, control characters, lone surrogates. */
const chunk = fc.constantFrom('', 'a', ' b', '\n', '"q"', '\\', '\u0000\u001f', '\ud800', '\udc00', '😀', 'é', '12 the quick brown fox ');
const id = fc.constantFrom('e1', 'e2', 'e3', 'e4', 'e9');
/** Batches as a session's batcher gathers them: mostly runs of text, with every other patch that touches a message in between. */
const textRun = fc.tuple(id, fc.array(chunk, { minLength: 1, maxLength: 9 })).map(([i, texts]) => texts.map((text): Patch => ({ op: 'append-text', id: i, text })));
const segment: fc.Arbitrary<Patch[]> = fc.oneof(
  { weight: 6, arbitrary: textRun },
  { weight: 1, arbitrary: fc.tuple(id, chunk).map(([i, text]): Patch => ({ op: 'append-entry', entry: message(i, text === '' ? [] : [{ type: 'text', text }]) })) },
  { weight: 1, arbitrary: id.map((i): Patch => ({ op: 'append-block', id: i, block: image })) },
  { weight: 1, arbitrary: fc.tuple(id, chunk).map(([i, text]): Patch => ({ op: 'patch-entry', id: i, fields: { content: [{ type: 'text', text }] } })) },
  { weight: 1, arbitrary: id.map((i): Patch => ({ op: 'add-flag', id: i, flag: 'after-turn-end' })) },
  { weight: 1, arbitrary: id.map((i): Patch => ({ op: 'append-entry', entry: toolCallEntry(i) })) },
  { weight: 1, arbitrary: fc.constant<Patch>({ op: 'set-session', fields: { turn: 2 } }) },
).map((p) => (Array.isArray(p) ? p : [p]));
const batch = fc.array(segment, { maxLength: 8 }).map((segments) => segments.flat());
/** A transcript the batches start from: some entries exist already, with text, an image or nothing last. */
const start: Transcript = applyPatches(emptyTranscript(), [
  { op: 'append-entry', entry: message('e1', [{ type: 'text', text: 'so far' }]) },
  { op: 'append-entry', entry: message('e2', [image]) },
  { op: 'append-entry', entry: message('e3', []) },
]);

describe('joinAppendedText', () => {
  it('gives the window the same transcript from fewer patches, batch after batch, whichever way it applies them', () => {
    let joined = 0;
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 4 }), (batches) => {
        deepFreeze(batches);
        // The core's patches, applied as they are, against the window's: each batch applied whole and
        // read, as the renderer's store does (containers shared) and as applyPatches does.
        const core = new TranscriptApplier(start, { shareContainers: true });
        const window = new TranscriptApplier(start, { shareContainers: true });
        let plain = start;
        let windowPlain = start;
        for (const batch of batches) {
          const out = joinAppendedText(batch);
          joined += batch.length - out.length;
          core.apply(batch);
          window.apply(out);
          expect(JSON.stringify(window.snapshot())).toBe(JSON.stringify(core.snapshot()));
          plain = applyPatches(plain, batch);
          windowPlain = applyPatches(windowPlain, out);
          expect(windowPlain).toEqual(plain);
          // What was joined: no two adjacent text patches of one entry are left, and nothing else moved.
          for (let i = 1; i < out.length; i++) expect(out[i]!.op === 'append-text' && out[i - 1]!.op === 'append-text' && (out[i] as { id: string }).id === (out[i - 1] as { id: string }).id).toBe(false);
          expect(out.filter((p) => p.op !== 'append-text')).toEqual(batch.filter((p) => p.op !== 'append-text'));
          expect(out.filter((p) => p.op !== 'append-text').every((p, i) => p === batch.filter((q) => q.op !== 'append-text')[i])).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
    expect(joined).toBeGreaterThan(10_000); // runs were there to join
  });

  it('joins a run of one message into one patch, keeps runs of other entries apart, and leaves the core’s patches alone', () => {
    const batch: Patch[] = deepFreeze([
      { op: 'append-entry', entry: message('e5', [{ type: 'text', text: 'a' }]) },
      { op: 'append-text', id: 'e5', text: 'b' },
      { op: 'append-text', id: 'e5', text: '"c"\\\n' },
      { op: 'append-text', id: 'e5', text: '' },
      { op: 'append-text', id: 'e6', text: 'x' },
      { op: 'append-text', id: 'e5', text: 'd' },
      { op: 'append-text', id: 'e5', text: '\ud800e' },
      { op: 'set-session', fields: { turn: 1 } },
      { op: 'append-text', id: 'e5', text: 'f' },
    ]);
    const out = joinAppendedText(batch);
    expect(out).toEqual([
      batch[0],
      { op: 'append-text', id: 'e5', text: 'b"c"\\\n' },
      batch[4],
      { op: 'append-text', id: 'e5', text: 'd\ud800e' },
      batch[7],
      batch[8],
    ]);
    expect(out[0]).toBe(batch[0]);
    expect(out[2]).toBe(batch[4]);
    expect(out[5]).toBe(batch[8]);
    expect(JSON.parse(JSON.stringify(out[3]))).toEqual({ op: 'append-text', id: 'e5', text: 'd\ud800e' });
  });

  it('hands back the same array when there is nothing to join', () => {
    const batch: Patch[] = [
      { op: 'append-text', id: 'e1', text: 'a' },
      { op: 'append-text', id: 'e2', text: 'b' },
      { op: 'append-text', id: 'e1', text: 'c' },
    ];
    expect(joinAppendedText(batch)).toBe(batch);
    expect(joinAppendedText([])).toEqual([]);
  });
});
