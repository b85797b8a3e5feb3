import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatches } from './apply-patches';
import type { ToolCallContent } from './acp-types';
import { emptyTranscript, type ToolCallEntry } from './model';
import type { Patch } from './patches';
import { supersededContent } from './superseded-content';
import { deepFreeze, toolCallEntry } from './test-entries';

const diff = (path: string, text: string): ToolCallContent => ({ type: 'diff', path, oldText: `${text}-old`, newText: `${text}-new` });
const note = (text: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text } });
const toolCall = (id: string, content: ToolCallContent[]): ToolCallEntry => toolCallEntry(id, { status: 'in_progress', content });

/** The batch as a patch batcher with the coalescing step would deliver it, pushed in the given pieces. */
function gathered(pieces: Patch[][], coalesce = supersededContent()): Patch[] {
  const pending: Patch[] = [];
  for (const piece of pieces) {
    const from = pending.length;
    pending.push(...piece);
    coalesce(pending, from);
  }
  return pending;
}

describe('supersededContent', () => {
  it('drops the diff a tool call opened with when its completion in the same batch replaces it', () => {
    const open: Patch = { op: 'append-entry', entry: toolCall('e1', [diff('/a', 'v1')]) };
    const chunk: Patch = { op: 'append-text', id: 'e0', text: 'hi' };
    const done: Patch = { op: 'patch-tool-call', id: 'e1', fields: { status: 'completed', content: [diff('/a', 'v2')] } };
    const input = deepFreeze([[open], [chunk], [done]]);
    const out = gathered(input);
    expect(out).toHaveLength(3);
    expect(out[0]).toEqual({ op: 'append-entry', entry: { ...toolCall('e1', []) } });
    expect(out[1]).toBe(chunk);
    expect(out[2]).toBe(done);
    expect(applyPatches(emptyTranscript(), out)).toEqual(applyPatches(emptyTranscript(), [open, chunk, done]));
    expect(JSON.stringify(out)).not.toContain('v1-old');
  });

  it('keeps a patch-tool-call with its other fields when only its content is superseded', () => {
    const first: Patch = { op: 'patch-tool-call', id: 'e1', fields: { status: 'in_progress', title: 'T', content: [diff('/a', 'v1')] }, keepDiffs: true };
    const second: Patch = { op: 'patch-tool-call', id: 'e1', fields: { content: [diff('/a', 'v2')] } };
    const out = gathered(deepFreeze([[first, second]]));
    expect(out).toEqual([{ op: 'patch-tool-call', id: 'e1', fields: { status: 'in_progress', title: 'T' } }, second]);
  });

  it('keeps content a keepDiffs patch reads, and content of other entries', () => {
    const open: Patch = { op: 'append-entry', entry: toolCall('e1', [diff('/a', 'v1')]) };
    const other: Patch = { op: 'append-entry', entry: toolCall('e2', [diff('/b', 'w1')]) };
    const resent: Patch = { op: 'patch-tool-call', id: 'e1', fields: { content: [note('why')] }, keepDiffs: true };
    const replaceOther: Patch = { op: 'patch-tool-call', id: 'e3', fields: { content: [] } };
    const input = deepFreeze([open, other, resent, replaceOther]);
    expect(gathered([input])).toEqual(input);
  });

  it('starts over with each new batch: content delivered earlier is never touched', () => {
    const coalesce = supersededContent();
    const open: Patch = { op: 'append-entry', entry: toolCall('e1', [diff('/a', 'v1')]) };
    const first = gathered([[open]], coalesce);
    const done: Patch = { op: 'patch-tool-call', id: 'e1', fields: { content: [diff('/a', 'v2')] } };
    const filler: Patch = { op: 'add-flag', id: 'e1', flag: 'tool-call-resent' };
    const second = gathered([[filler], [done]], coalesce);
    expect(first).toEqual([open]);
    expect(second).toEqual([filler, done]);
  });

  // Patches about three entries, the kinds that touch a tool call's content and some that do not.
  const id = fc.constantFrom('e1', 'e2', 'e3');
  const content = fc.array(fc.oneof(fc.constantFrom('/a', '/b').map((p) => diff(p, p)), fc.constantFrom('x', 'y').map(note)), { maxLength: 2 });
  const patch: fc.Arbitrary<Patch> = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(id, content).map(([i, c]) => ({ op: 'append-entry', entry: toolCall(i, c) }) as Patch) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(id, fc.option(content, { nil: undefined }), fc.option(fc.constantFrom('completed', 'failed'), { nil: undefined }), fc.boolean())
        .map(([i, c, status, keepDiffs]) => {
          const fields = { ...(c !== undefined ? { content: c } : {}), ...(status !== undefined ? { status } : {}) };
          return { op: 'patch-tool-call', id: i, fields, ...(keepDiffs ? { keepDiffs } : {}) } as Patch;
        }),
    },
    fc.tuple(id, fc.constantFrom('a', 'b')).map(([i, text]) => ({ op: 'append-text', id: i, text }) as Patch),
    id.map((i) => ({ op: 'append-block', id: i, block: { type: 'text', text: 'blk' } }) as Patch),
    fc.tuple(id, content).map(([i, c]) => ({ op: 'patch-entry', id: i, fields: { content: c } }) as Patch),
    id.map((i) => ({ op: 'upsert-permission', id: i, permission: { requestId: 1, status: 'pending' } }) as Patch),
    id.map((i) => ({ op: 'add-flag', id: i, flag: 'tool-call-resent' }) as Patch),
  );

  it('any batches, pushed in any pieces, build the same transcript as the patches as given', () => {
    fc.assert(
      fc.property(fc.array(patch, { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 40, maxLength: 40 }), fc.boolean(), (patches, cuts, known) => {
        deepFreeze(patches);
        // A session whose tool call e1 the window already holds, or a fresh one.
        const start = known ? applyPatches(emptyTranscript(), [{ op: 'append-entry', entry: toolCall('e1', [diff('/a', 'before')]) }]) : emptyTranscript();
        const coalesce = supersededContent();
        let expected = start;
        let actual = start;
        let pending: Patch[] = [];
        let piece: Patch[] = [];
        patches.forEach((p, i) => {
          piece.push(p);
          // 2–3: the next patch joins this one's push (one reducer step's patches come together).
          if (cuts[i]! >= 2 && i < patches.length - 1) return;
          const from = pending.length;
          pending.push(...piece);
          piece = [];
          coalesce(pending, from);
          // 0: delivered here (the next batch is a new array); 1: the batch keeps gathering.
          if (cuts[i] === 0) {
            actual = applyPatches(actual, pending);
            pending = [];
          }
        });
        actual = applyPatches(actual, pending);
        expected = applyPatches(expected, patches);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('makes the flood mix lighter: each diff travels once', () => {
    const patches: Patch[] = [];
    for (let k = 0; k < 10; k++) {
      patches.push({ op: 'append-entry', entry: toolCall(`t${k}`, [diff('/a', `open-${k}`)]) });
      for (let j = 0; j < 9; j++) patches.push({ op: 'append-text', id: 'm', text: 'chunk' });
      patches.push({ op: 'patch-tool-call', id: `t${k}`, fields: { status: 'completed', content: [diff('/a', `done-${k}`)] } });
    }
    const out = gathered([patches]);
    const json = JSON.stringify(out);
    for (let k = 0; k < 10; k++) {
      expect(json).not.toContain(`open-${k}`);
      expect(json).toContain(`done-${k}`);
    }
  });
});
