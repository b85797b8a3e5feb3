import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LARGE_DIFF_CHARS, previewOfDiff } from '../diff/large-diff-preview';
import type { DiffContent, ToolCallContent } from './acp-types';
import { TranscriptApplier } from './apply-patches';
import { emptyTranscript, type ToolCallEntry } from './model';
import type { Patch } from './patches';
import { joinAppendedText } from './joined-text';
import { supersededContent } from './superseded-content';
import { deepFreeze, toolCallEntry } from './test-entries';
import { FOREIGN_PREVIEW_TYPE, windowContent, windowEntry, windowPatches } from './window-diffs';

const side = (tag: string) => Array.from({ length: 400 }, (_, i) => `${tag} line ${i}`).join('\n');
const large = (path: string, tag = 'v'): DiffContent => ({ type: 'diff', path, oldText: side(`${tag}-old`), newText: side(`${tag}-new`) });
const small: DiffContent = { type: 'diff', path: '/small', oldText: 'a\n', newText: 'b\n' };
const note: ToolCallContent = { type: 'content', content: { type: 'text', text: 'why' } };
const call = (id: string, content: ToolCallContent[], extra: Partial<ToolCallEntry> = {}) => toolCallEntry(id, { content, ...extra });

describe('windowContent', () => {
  it('turns large diffs into previews and leaves the rest as it is', () => {
    const content = deepFreeze([note, large('/a'), small]);
    const out = windowContent(content)!;
    expect(out[0]).toBe(note);
    expect(out[1]).toEqual(previewOfDiff(large('/a')));
    expect(out[2]).toBe(small);
    expect(windowContent([note, small])).toBeNull();
    expect(large('/a').oldText!.length + large('/a').newText.length).toBeGreaterThan(LARGE_DIFF_CHARS);
  });

  it("renames an agent's own diff_preview item, so a window never takes it for the core's", () => {
    const forged = { type: 'diff_preview', path: '/x', view: { kind: 'identical' } } as unknown as ToolCallContent;
    const out = windowContent([forged])!;
    expect(out[0]).toEqual({ ...forged, type: FOREIGN_PREVIEW_TYPE });
  });
});

describe('windowPatches', () => {
  it('sends large diffs of appended and patched tool calls as previews, without touching the core’s patches', () => {
    const patches: Patch[] = deepFreeze([
      { op: 'append-entry', entry: call('e1', [large('/a')]) },
      { op: 'append-text', id: 'e0', text: 'hi' },
      { op: 'patch-tool-call', id: 'e1', fields: { status: 'completed', content: [large('/a', 'w'), small] } },
      { op: 'append-entry', entry: call('e2', [small]) },
    ]);
    const out = windowPatches(patches);
    expect(out).not.toBe(patches);
    expect(out[1]).toBe(patches[1]);
    expect(out[3]).toBe(patches[3]);
    expect(out[0]).toEqual({ op: 'append-entry', entry: call('e1', [previewOfDiff(large('/a'))]) });
    expect(out[2]).toEqual({ op: 'patch-tool-call', id: 'e1', fields: { status: 'completed', content: [previewOfDiff(large('/a', 'w')), small] } });
    expect(JSON.stringify(out)).not.toContain('w-new line 399');
  });

  it('gives back the same array when no diff is large', () => {
    const patches: Patch[] = [{ op: 'append-entry', entry: call('e1', [small]) }, { op: 'patch-tool-call', id: 'e1', fields: { status: 'completed' } }];
    expect(windowPatches(patches)).toBe(patches);
  });

  it('sends whole the diffs of a tool call the batch asks permission about', () => {
    const patches: Patch[] = [
      { op: 'patch-tool-call', id: 'e1', fields: { content: [large('/a')] } },
      { op: 'upsert-permission', id: 'e1', permission: { requestId: 7, options: [] } },
      { op: 'append-entry', entry: call('e2', [large('/b')]) },
      { op: 'upsert-permission', id: 'e2', permission: { requestId: 8, status: 'selected' } },
    ];
    const out = windowPatches(patches);
    expect(out[0]).toBe(patches[0]);
    expect((out[2] as { entry: ToolCallEntry }).entry.content[0]!.type).toBe('diff_preview');
  });

  it('builds the same transcript as the patches given, but for the previews (applied with keepDiffs too)', () => {
    const patches: Patch[] = [
      { op: 'append-entry', entry: call('e1', [large('/a')]) },
      { op: 'patch-tool-call', id: 'e1', fields: { content: [note] }, keepDiffs: true },
      { op: 'append-entry', entry: call('e2', [small, large('/b')]) },
    ];
    const whole = new TranscriptApplier(emptyTranscript());
    whole.apply(patches);
    const window = new TranscriptApplier(emptyTranscript());
    window.apply(windowPatches(patches));
    const expected = whole.snapshot();
    const got = window.snapshot();
    expect(got.ids).toEqual(expected.ids);
    for (const id of expected.ids) expect(got.entries[id]).toEqual(windowEntry(expected.entries[id]!));
    expect((got.entries.e1 as ToolCallEntry).content.map((c) => c.type)).toEqual(['diff_preview', 'content']);
  });
});

describe('windowEntry', () => {
  it('previews a tool call’s large diffs, unless it waits for permission', () => {
    const entry = deepFreeze(call('e1', [large('/a')]));
    expect((windowEntry(entry) as ToolCallEntry).content[0]).toEqual(previewOfDiff(large('/a')));
    const asking = call('e1', [large('/a')], { permissions: [{ requestId: 1, t: 1, options: [], status: 'pending' }] });
    expect(windowEntry(asking)).toBe(asking);
    const answered = call('e1', [large('/a')], { permissions: [{ requestId: 1, t: 1, options: [], status: 'selected' }] });
    expect((windowEntry(answered) as ToolCallEntry).content[0]!.type).toBe('diff_preview');
    const small1 = call('e1', [small]);
    expect(windowEntry(small1)).toBe(small1);
  });
});

describe('a window’s transcript and the session batches’ boundaries', () => {
  // The session manager delivers each batch as `windowPatches(joinAppendedText(batch))`, the batch
  // gathered with `supersededContent()` (session-manager.ts); how often it delivers (patch-batcher.ts'
  // SESSION_BATCH_MS) only moves the boundaries. Whatever they are, the window builds the same
  // transcript. Not with a permission asked: a tool call asked about in the same batch goes whole,
  // by design (see windowPatches), so there the boundaries decide between its diff and its preview.
  const id = fc.constantFrom('e1', 'e2', 'e3');
  const diffs = [large('/a', 'v1'), large('/a', 'v2'), large('/b', 'w'), small];
  const content = fc.array(fc.oneof(fc.constantFrom(...diffs), fc.constant(note)), { maxLength: 3 });
  const patch: fc.Arbitrary<Patch> = fc.oneof(
    { weight: 2, arbitrary: fc.tuple(id, content).map(([i, c]) => ({ op: 'append-entry', entry: call(i, c, { status: 'in_progress' }) }) as Patch) },
    { weight: 1, arbitrary: fc.constantFrom('m1', 'm2').map((i) => ({ op: 'append-entry', entry: { id: i, kind: 'agent_message', t: 1, turn: 1, content: [] } }) as Patch) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('m1', 'm2'), fc.constantFrom('a', 'b ', 'c\n', '"d"')).map(([i, text]) => ({ op: 'append-text', id: i, text }) as Patch) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(id, fc.option(content, { nil: undefined }), fc.option(fc.constantFrom('completed', 'failed'), { nil: undefined }), fc.boolean())
        .map(([i, c, status, keepDiffs]) => {
          const fields = { ...(c !== undefined ? { content: c } : {}), ...(status !== undefined ? { status } : {}) };
          return { op: 'patch-tool-call', id: i, fields, ...(keepDiffs ? { keepDiffs } : {}) } as Patch;
        }),
    },
    { weight: 1, arbitrary: id.map((i) => ({ op: 'add-flag', id: i, flag: 'tool-call-resent' }) as Patch) },
  );
  // Pushes (one record's patches each) and, after each push, whether a delivery follows.
  const run = fc.array(fc.tuple(fc.array(patch, { minLength: 1, maxLength: 3 }), fc.boolean()), { minLength: 1, maxLength: 25 });

  /** The transcript a window builds from the deliveries, through JSON as it receives them. */
  function windowOf(pushes: Patch[][], deliverAfter: (i: number) => boolean) {
    const window = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
    let pending: Patch[] = [];
    const coalesce = supersededContent();
    const deliver = () => {
      if (pending.length > 0) window.apply(JSON.parse(JSON.stringify(windowPatches(joinAppendedText(pending)))) as Patch[]);
      pending = [];
    };
    pushes.forEach((push, i) => {
      const from = pending.length;
      pending.push(...push);
      coalesce(pending, from);
      if (deliverAfter(i)) deliver();
    });
    deliver();
    return window.snapshot();
  }

  it('is the same with one batch, a batch per push or any boundaries between', () => {
    fc.assert(
      fc.property(run, (steps) => {
        const pushes = deepFreeze(steps.map(([push]) => push));
        const whole = windowOf(pushes, () => false);
        expect(windowOf(pushes, () => true)).toEqual(whole);
        expect(windowOf(pushes, (i) => steps[i]![1])).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});
