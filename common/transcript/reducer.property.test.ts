/**
 * Generated record sequences: patches applied as they come (in batches of any size, as the
 * renderer does per frame) give the same transcript as a rebuild from scratch, without touching
 * earlier snapshots; and whatever agents send, the reducer neither throws nor loses updates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../trace/json';
import type { TraceRecord } from '../trace/records';
import { applyPatches } from './apply-patches';
import { emptyTranscript, entryList } from './model';
import type { Patch } from './patches';
import { allFileChanges } from './file-changes';
import { rebuildTranscript, TranscriptBuilder } from './rebuild';
import { initialReducerState, reduce } from './reducer';
import { MemoryColdStore } from './cold-store';
import { LiveTranscript } from './live-transcript';
import { supersededContent } from './superseded-content';
import { deepFreeze } from './test-entries';

type Draft = Omit<TraceRecord, 't'>;
const wire = (dir: 'in' | 'out', msg: JsonObject): Draft => ({ kind: 'wire', dir, msg: { jsonrpc: '2.0', ...msg } }) as Draft;
const update = (u: JsonObject): Draft => wire('in', { method: 'session/update', params: { sessionId: 's', update: u } });

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject;

const rpcId = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('u-1', 'u-2', '3'));
const toolCallId = fc.constantFrom('tc1', 'tc2', 'tc3', 'tc4');
const messageId = fc.constantFrom(undefined, undefined, 'm1', 'm2');
const text = fc.string({ minLength: 1, maxLength: 6 });
const textBlock = text.map((t) => ({ type: 'text', text: t }));
const block = fc.oneof(textBlock, fc.constant({ type: 'image', data: 'AA==', mimeType: 'image/png' }), fc.constant({ type: 'resource_link', uri: 'file:///x', name: 'x' }));
const diff = fc.record({ type: fc.constant('diff'), path: fc.constantFrom('/a', '/b'), oldText: fc.option(text, { nil: null }), newText: text });
const toolContent = fc.array(fc.oneof(diff, textBlock.map((content) => ({ type: 'content', content })), fc.constant({ type: 'terminal', terminalId: 'term' })), { maxLength: 3 });
const status = fc.constantFrom('pending', 'in_progress', 'completed', 'failed');
const toolFields = fc.record({
  title: opt(fc.oneof(text, fc.constant(null))),
  kind: opt(fc.constantFrom('edit', 'read', 'execute', 'other')),
  status: opt(status),
  content: opt(toolContent),
  locations: opt(fc.constant([{ path: '/a', line: 1 }])),
  rawInput: opt(fc.oneof(fc.constant({}), fc.constant({ path: '/a' }), fc.constant(null))),
  rawOutput: opt(fc.constant({ ok: true })),
});
const options = [
  { optionId: 'y', name: 'Yes', kind: 'allow_once' },
  { optionId: 'n', name: 'No', kind: 'reject_once' },
];
const configOptions = fc.constantFrom('a', 'b').chain((model) =>
  fc.constantFrom('low', 'high').map((effort) => [
    { id: 'model', name: 'Model', type: 'select', currentValue: model, options: [] },
    { id: 'effort', name: 'Effort', type: 'select', currentValue: effort, options: [] },
  ]),
);
const UNKNOWN_VARIANTS = ['compaction_update', 'plan_update', 'async_task_spawned'];

// Chunks weigh most: merging into open entries across batch boundaries is what batching can break.
const updateArb: fc.Arbitrary<Draft> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(fc.constantFrom('user_message_chunk', 'agent_message_chunk', 'agent_message_chunk', 'agent_thought_chunk'), block, messageId)
      .map(([sessionUpdate, content, id]) => update(defined({ sessionUpdate, content, messageId: id }))),
  },
  fc.tuple(fc.constantFrom('tool_call', 'tool_call_update'), toolCallId, toolFields).map(([sessionUpdate, id, f]) => update(defined({ sessionUpdate, toolCallId: id, ...f }))),
  fc.array(fc.record({ content: text, priority: fc.constant('high'), status: fc.constant('pending') }), { maxLength: 2 }).map((entries) => update({ sessionUpdate: 'plan', entries })),
  fc.array(text, { maxLength: 2 }).map((names) => update({ sessionUpdate: 'available_commands_update', availableCommands: names.map((name) => ({ name, description: '' })) })),
  fc.tuple(fc.constantFrom('currentModeId', 'modeId'), fc.constantFrom('ask', 'code')).map(([key, mode]) => update({ sessionUpdate: 'current_mode_update', [key]: mode })),
  configOptions.map((o) => update({ sessionUpdate: 'config_option_update', configOptions: o })),
  fc.record({ title: opt(fc.oneof(text, fc.constant(null))), updatedAt: opt(fc.constant(null)) }).map((f) => update(defined({ sessionUpdate: 'session_info_update', ...f }))),
  fc.nat(100).map((used) => update({ sessionUpdate: 'usage_update', used, size: 100 })),
  text.map((title) => update({ sessionUpdate: 'notice', severity: 'info', title })),
  fc.constantFrom(...UNKNOWN_VARIANTS).map((sessionUpdate) => update({ sessionUpdate, x: 1 })),
);

const wireArb: fc.Arbitrary<Draft> = fc.oneof(
  fc.tuple(rpcId, text).map(([id, t]) => wire('out', { id, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: t }] } })),
  fc.tuple(rpcId, fc.constantFrom('ask', 'code')).map(([id, modeId]) => wire('out', { id, method: 'session/set_mode', params: { sessionId: 's', modeId } })),
  fc.tuple(rpcId, fc.constantFrom('a', 'b')).map(([id, value]) => wire('out', { id, method: 'session/set_config_option', params: { sessionId: 's', configId: 'model', value } })),
  fc.tuple(rpcId, fc.constantFrom('session/new', 'session/load', 'session/set_model')).map(([id, method]) => wire('out', { id, method, params: { sessionId: 's', modelId: 'm2' } })),
  fc.constant(wire('out', { method: 'session/cancel', params: { sessionId: 's' } })),
  fc
    .tuple(rpcId, fc.oneof(fc.constantFrom('end_turn', 'cancelled').map((stopReason) => ({ stopReason }) as JsonValue), fc.constant({}), fc.constant(null), configOptions.map((o) => ({ configOptions: o }) as JsonValue)))
    .map(([id, result]) => wire('in', { id, result })),
  rpcId.map((id) => wire('in', { id, error: { code: -32603, message: 'boom' } })),
  fc.tuple(rpcId, toolCallId, toolFields).map(([id, tc, f]) => wire('in', { id, method: 'session/request_permission', params: { sessionId: 's', toolCall: defined({ toolCallId: tc, ...f }), options } })),
  fc.tuple(rpcId, fc.constantFrom('/a', '/b')).map(([id, path]) => wire('in', { id, method: 'fs/write_text_file', params: { sessionId: 's', path, content: 'x' } })),
  rpcId.map((id) => wire('in', { id, method: 'terminal/create', params: { sessionId: 's', command: 'ls' } })),
  fc
    .tuple(rpcId, fc.oneof(fc.constantFrom('y', 'n').map((optionId) => ({ outcome: { outcome: 'selected', optionId } }) as JsonValue), fc.constant({ outcome: { outcome: 'cancelled' } }), fc.constant({ terminalId: 'term' })))
    .map(([id, result]) => wire('out', { id, result })),
  rpcId.map((id) => wire('out', { id, error: { code: -32000, message: 'no' } })),
  rpcId.map((requestId) => wire('in', { method: '$/cancel_request', params: { requestId } })),
);

const eventArb: fc.Arbitrary<Draft> = fc.oneof(
  fc.tuple(rpcId, opt(text)).map(([requestId, t]) => defined({ kind: 'prompt', requestId, prompt: t === undefined ? undefined : [{ type: 'text', text: t }], origin: 'user' }) as unknown as Draft),
  fc.tuple(rpcId, toolCallId).map(([requestId, tc]) => ({ kind: 'permission-asked', requestId, toolCallId: tc, options }) as Draft),
  fc.tuple(rpcId, fc.constantFrom('selected', 'cancelled') as fc.Arbitrary<'selected' | 'cancelled'>).map(([requestId, outcome]) => ({ kind: 'permission-decided', requestId, outcome, optionId: 'y', by: 'user' }) as Draft),
  fc.constant({ kind: 'cancel', by: 'user' } as Draft),
  fc.tuple(opt(rpcId), fc.constantFrom('/a', '/b')).map(([requestId, path]) => defined({ kind: 'fs-write', requestId, path, oldText: null, newText: 'n' }) as unknown as Draft),
  fc.constantFrom('created', 'output', 'exited', 'killed', 'released').map((action) => ({ kind: 'terminal', terminalId: 'term', action, output: 'o' }) as Draft),
  fc.constant({ kind: 'session', action: 'created', sessionId: 'W', agentSessionId: 's' } as Draft),
  fc.constant({ kind: 'session-meta', sessionId: 'W', title: 'T', tags: ['a'] } as Draft),
  fc.constant({ kind: 'notice', severity: 'warning', message: 'n' } as Draft),
  text.map((t) => ({ kind: 'stderr', text: t }) as Draft),
  fc.constant({ kind: 'noise', dir: 'in', text: 'banner' } as Draft),
  fc.constant({ kind: 'oversize', dir: 'in', length: 9, sha256: 'ab', head: '{' } as Draft),
  fc.constant({ kind: 'spawn', pid: 1 } as Draft),
  fc.record({ code: fc.constantFrom(0, 1, null), signal: fc.constantFrom(null, 'SIGKILL'), expected: fc.boolean() }).map((r) => ({ kind: 'exit', ...r }) as Draft),
);

const records = fc
  .array(fc.oneof({ arbitrary: updateArb, weight: 5 }, { arbitrary: wireArb, weight: 3 }, { arbitrary: eventArb, weight: 2 }), { maxLength: 60 })
  .map((drafts) => drafts.map((d, i) => ({ ...d, t: i + 1 }) as TraceRecord));

/** Frozen inputs and snapshots make any in-place write by the reducer or the applier throw. */
/** A reducer state as text, maps included. */
const stateJson = (state: unknown): string => JSON.stringify(state, (_k, v: unknown) => (v instanceof Map ? [...v.entries()] : v));

describe('reducer properties', () => {
  it('incremental application in any batching equals a rebuild, and never alters earlier snapshots', () => {
    fc.assert(
      fc.property(records, fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (recs, cuts) => {
        deepFreeze(recs);
        let state = initialReducerState();
        let view = emptyTranscript();
        let oneByOne = emptyTranscript();
        let pending: Patch[] = [];
        // The patch batcher's coalescing step: a batch without the tool-call content it replaces.
        const coalesce = supersededContent();
        const snapshots: [unknown, string][] = [];
        const states: [unknown, string][] = [];
        // The long-lived applier main keeps per session, snapshotted whenever a window is read.
        const live = new TranscriptBuilder();
        recs.forEach((r, i) => {
          live.push(r);
          const step = reduce(state, r);
          state = step.state;
          const from = pending.length;
          pending.push(...step.patches);
          coalesce(pending, from);
          oneByOne = applyPatches(oneByOne, step.patches);
          if (cuts[i]) {
            view = applyPatches(view, pending);
            pending = [];
            snapshots.push([view, JSON.stringify(view)]);
            deepFreeze(view);
            const liveSnapshot = live.transcript;
            snapshots.push([liveSnapshot, JSON.stringify(liveSnapshot)]);
            deepFreeze(liveSnapshot);
            // The builder's reducer state, once read, is not written by later steps (which write
            // their own state objects and maps in place until then).
            const liveState = live.state;
            states.push([liveState, stateJson(liveState)]);
            Object.freeze(liveState);
          }
        });
        view = applyPatches(view, pending);
        const rebuilt = rebuildTranscript(recs);
        expect(view).toEqual(rebuilt);
        expect(oneByOne).toEqual(rebuilt);
        expect(live.transcript).toEqual(rebuilt);
        for (const [snapshot, json] of snapshots) expect(JSON.stringify(snapshot)).toBe(json);
        for (const [st, json] of states) expect(stateJson(st)).toBe(json);
      }),
      { numRuns: 300 },
    );
  });

  it('a live transcript that keeps 1–6 entries (and a weight limit) in memory and spills the rest gives the same patches, windows, file changes and transcript', () => {
    // Weights of generated entries are ~30–150: the limits make entries go cold by weight too.
    const limits = fc.record({ hotEntries: fc.integer({ min: 1, max: 6 }), hotWeight: fc.constantFrom(0, 40, 200, Infinity) });
    fc.assert(
      fc.property(records, limits, fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (recs, { hotEntries, hotWeight }, cuts) => {
        deepFreeze(recs);
        const memory = new TranscriptBuilder();
        const cold = new MemoryColdStore();
        const spilled = new LiveTranscript({ cold, hotEntries, hotWeight });
        const snapshots: [unknown, string][] = [];
        recs.forEach((r, i) => {
          const patches = memory.push(r);
          expect(JSON.stringify(spilled.push(r))).toBe(JSON.stringify(patches));
          if (!cuts[i]) return;
          // What the UI would fetch now: every window over the entries so far.
          const all = entryList(memory.transcript);
          for (const [offset, limit] of [[0, all.length], [1, 2], [all.length - 1, 5]] as const) {
            const window = spilled.window(Math.max(0, offset), limit);
            expect(window).toEqual(all.slice(Math.max(0, offset), Math.max(0, offset) + limit));
            expect(JSON.stringify(window)).toBe(JSON.stringify(all.slice(Math.max(0, offset), Math.max(0, offset) + limit)));
          }
          const snapshot = spilled.transcript;
          snapshots.push([snapshot, JSON.stringify(snapshot)]);
          deepFreeze(snapshot);
        });
        const rebuilt = rebuildTranscript(recs);
        expect(spilled.transcript).toEqual(rebuilt);
        expect(spilled.entryCount).toBe(rebuilt.ids.length);
        expect(spilled.fileChanges()).toEqual(allFileChanges(rebuilt));
        expect(spilled.changedPaths()).toEqual([...new Set(allFileChanges(rebuilt).filter((c) => !c.error && c.path).map((c) => c.path))].sort());
        if (rebuilt.ids.length > hotEntries) expect(spilled.coldEntries).toBeGreaterThan(0);
        // Earlier snapshots read their cold entries back as they were then.
        for (const [snapshot, json] of snapshots) expect(JSON.stringify(snapshot)).toBe(json);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps entries consistent: unique ids, one entry per tool call id, every unknown update kept', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const t = rebuildTranscript(recs);
        expect(Object.keys(t.entries).sort()).toEqual([...t.ids].sort());
        expect(new Set(t.ids).size).toBe(t.ids.length);
        const toolIds = entryList(t).flatMap((e) => (e.kind === 'tool_call' ? [e.toolCallId] : []));
        expect(new Set(toolIds).size).toBe(toolIds.length);
        const sentUnknown = recs.filter(
          (r) => r.kind === 'wire' && r.msg.method === 'session/update' && UNKNOWN_VARIANTS.includes(String((r.msg.params as JsonObject).update && ((r.msg.params as JsonObject).update as JsonObject).sessionUpdate)),
        ).length;
        const keptUnknown = entryList(t).filter((e) => e.kind === 'unknown_update' && UNKNOWN_VARIANTS.includes(String(e.sessionUpdate))).length;
        expect(keptUnknown).toBe(sentUnknown);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary JSON where ACP objects are expected', () => {
    const anyUpdate = fc.tuple(fc.constantFrom('agent_message_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update', 'session_info_update', 'config_option_update', 'current_mode_update', 'available_commands_update', 'notice', 'user_message_chunk'), fc.dictionary(fc.constantFrom('content', 'toolCallId', 'entries', 'title', 'status', 'configOptions', 'availableCommands', 'modeId', 'currentModeId', 'messageId', 'used', 'cost'), fc.jsonValue({ maxDepth: 2 }))).map(
      ([sessionUpdate, fields]) => update({ ...(fields as JsonObject), sessionUpdate }),
    );
    const anyMessage = fc.tuple(fc.constantFrom('in', 'out') as fc.Arbitrary<'in' | 'out'>, fc.dictionary(fc.constantFrom('id', 'method', 'params', 'result', 'error'), fc.jsonValue({ maxDepth: 2 }))).map(
      ([dir, msg]) => ({ kind: 'wire', dir, msg }) as Draft,
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(anyUpdate, anyMessage, wireArb), { maxLength: 40 }), (drafts) => {
        const recs = drafts.map((d, i) => ({ ...d, t: i }) as TraceRecord);
        expect(() => rebuildTranscript(recs)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
