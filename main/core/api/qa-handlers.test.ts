/**
 * The QA requests through the core, as the inspector panel uses them, against the fixture agent
 * (a real subprocess): the inspector's windows (a permission request, its answer and latency),
 * filters and search, one message, export, live findings with their rows, the raw composer,
 * templates, manual answers and fault rules, and the capabilities advertised.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../common/api/contract';
import type { FindingsResult, InspectorWindowResult, QaState, RawRequestResult, ComposerTemplate, InspectorMessage } from '../../../common/api/qa-types';
import type { EntriesResult, LiveSessionSummary } from '../../../common/api/session-api-types';
import { readTraceFile } from '../history/trace-reader';
import { createCore } from '../core';
import { fixtureArgs, tempBase } from '../workspace/testing/git-repo';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function world() {
  const t = tempBase('acpwb-qah-');
  cleanups.push(t.cleanup);
  const core = createCore({ host: 'test', paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') } });
  cleanups.push(() => core.dispose());
  const events: Array<{ name: EventName; payload: unknown }> = [];
  core.connect((name, payload) => events.push({ name, payload }));
  const call = <R>(name: string, params?: unknown) => core.handle(name, params) as Promise<R>;
  return { base: t.base, core, events, call };
}

const allText = async (call: ReturnType<typeof world>['call'], sessionId: string) =>
  JSON.stringify((await call<EntriesResult>('session/entries', { sessionId, offset: 0, limit: 500 })).items);

describe('QA requests', () => {
  it('inspector: a permission request and its answer with latency; filters, search, one message, export; findings, composer, templates', async () => {
    const { base, events, call } = world();
    const scenario = {
      initialize: { agentCapabilities: { promptCapabilities: {}, _meta: { 'vendor.example': { steering: true } } } },
      defaultPrompt: {
        steps: [
          { noise: 'a banner on stdout' },
          { toolCall: { toolCallId: 'e1', title: 'Edit a.txt', kind: 'edit' } },
          { permission: { toolCall: { toolCallId: 'e1' } }, onSelected: { 'allow-once': [{ text: 'allowed' }] } },
        ],
      },
    };
    const started = await call<LiveSessionSummary>('sessions/start', { agent: { command: process.execPath, args: fixtureArgs(scenario) }, cwd: base, policy: 'ask' });
    const sessionId = started.sessionId;
    const turn = call<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });

    const permissions = () => call<InspectorWindowResult>('inspector/window', { sessionId, methods: ['session/request_permission'], offset: 0, limit: 50 });
    await expect.poll(async () => (await permissions()).total, { timeout: 15_000 }).toBe(1);
    const [asked] = (await permissions()).items;
    expect(asked).toMatchObject({ kind: 'request', dir: 'in', method: 'session/request_permission', sessionId });
    expect(await call('session/answer-permission', { sessionId, requestId: asked!.id, optionId: 'allow-once' })).toEqual({ status: 'resolved' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });

    const both = (await permissions()).items;
    expect(both.map((r) => [r.kind, r.dir])).toEqual([
      ['request', 'in'],
      ['response', 'out'],
    ]);
    expect(both[1]!.latency).toBeGreaterThan(0);
    expect(both[1]).toMatchObject({ peer: asked!.index, id: asked!.id, preview: expect.stringContaining('allow-once') });
    await expect.poll(() => events.some((e) => e.name === 'inspector/appended' && (e.payload as { sessionId: string }).sessionId === sessionId)).toBe(true);

    const all = await call<InspectorWindowResult>('inspector/window', { sessionId, offset: 0, limit: 500 });
    expect(all.items.map((r) => r.method ?? r.kind)).toEqual(expect.arrayContaining(['initialize', 'session/new', 'session/prompt', 'session/update', 'noise']));
    expect(all.facets.methods).toContain('session/request_permission');
    expect(all.facets.updateKinds).toContain('tool_call');
    const out = await call<InspectorWindowResult>('inspector/window', { sessionId, dirs: ['out'], kinds: ['request'], offset: 0, limit: 50 });
    expect(out.items.map((r) => r.method)).toEqual(['initialize', 'session/new', 'session/prompt']);
    const searched = await call<InspectorWindowResult>('inspector/window', { sessionId, search: 'ALLOWED', offset: 0, limit: 50 });
    expect(searched.items.map((r) => r.updateKind)).toEqual(['agent_message_chunk']);
    const message = await call<InspectorMessage>('inspector/message', { sessionId, index: asked!.index });
    expect(message.record).toMatchObject({ kind: 'wire', dir: 'in', msg: { method: 'session/request_permission' } });
    await expect(call('inspector/message', { sessionId, index: 9999 })).rejects.toMatchObject({ code: 'not_found' });
    const exported = await call<{ text: string; count: number; fileName: string }>('inspector/export', { sessionId, methods: ['session/request_permission'] });
    expect(exported.count).toBe(2);
    expect(exported.fileName).toMatch(/^inspector-.*\.jsonl$/);
    expect(exported.text.trim().split('\n').map((l) => (JSON.parse(l) as { dir: string }).dir)).toEqual(['in', 'out']);

    // Live conformance: the banner on stdout is a finding whose evidence is the noise row.
    await expect.poll(async () => (await call<FindingsResult>('qa/findings', { sessionId })).counts.error).toBeGreaterThan(0);
    const findings = await call<FindingsResult>('qa/findings', { sessionId });
    const noise = findings.findings.find((f) => f.rule === 'stdout-noise')!;
    const noiseRow = all.items.find((r) => r.kind === 'noise')!;
    expect(noise.rows).toEqual([noiseRow.index]);
    expect(noise.evidence).toEqual([noiseRow.line]);
    await expect.poll(() => events.some((e) => e.name === 'qa/findings-changed')).toBe(true);

    // The composer: an extension the agent lacks answers -32601, sent again on request, marked unchecked.
    const raw = await call<RawRequestResult>('qa/raw-request', { sessionId, method: '_vendor.example/steer', params: { x: 1 } });
    expect(raw).toMatchObject({ ok: false, error: { code: -32601 } });
    expect((await call<RawRequestResult>('qa/raw-request', { sessionId, method: '_vendor.example/steer', params: { x: 2 } })).error?.code).toBe(-32601);
    const note = await call<RawRequestResult>('qa/raw-request', { sessionId, method: '_vendor.example/ping', notification: true });
    expect(note).toMatchObject({ ok: true, notification: true });
    const unchecked = await call<InspectorWindowResult>('inspector/window', { sessionId, methods: ['_vendor.example/steer'], offset: 0, limit: 10 });
    expect(unchecked.items.map((r) => [r.kind, r.unchecked ?? false])).toEqual([
      ['request', true],
      ['response', false],
      ['request', true],
      ['response', false],
    ]);
    const list = await call<RawRequestResult>('qa/raw-request', { sessionId, method: 'session/list', params: {} });
    expect(list.ok).toBe(false);

    const templates = await call<ComposerTemplate[]>('qa/templates', { sessionId });
    const prompt = templates.find((t) => t.method === 'session/prompt')!;
    expect((prompt.params as { sessionId: string }).sessionId).toMatch(/^fixture-session-/);
    expect(templates.find((t) => t.method === 'session/list')?.advertised).toBe(false);
    expect(templates.find((t) => t.method === 'session/cancel')?.kind).toBe('notification');
    expect(templates.filter((t) => t.source === 'extension').map((t) => t.method)).toEqual(['_vendor.example/']);
  });

  it('manual answers and fault rules reach the agent; capabilities switched off are not advertised', async () => {
    const { base, call, events } = world();
    const scenario = {
      defaultPrompt: {
        steps: [
          { readFile: { path: 'notes.txt' }, report: true, onError: [{ text: 'read failed;' }] },
          { request: { method: '_vendor/ask', params: { q: 'why' } }, report: true, onError: [{ text: 'ext failed;' }] },
          { writeFile: { path: 'out.txt', content: 'x' }, report: true, onError: [{ text: 'write failed;' }] },
          { permission: { toolCall: { toolCallId: 'p1', title: 'Delete everything' } }, saveAs: 'choice' },
          { text: 'choice={{saved.choice}}' },
        ],
      },
    };
    const started = await call<LiveSessionSummary>('sessions/start', {
      agent: { command: process.execPath, args: fixtureArgs(scenario) },
      cwd: base,
      policy: 'ask',
      switches: { terminal: false, elicitationForm: false, elicitationUrl: false },
    });
    const sessionId = started.sessionId;
    const state = await call<QaState>('qa/state', { sessionId });
    expect(state.clientCapabilities).toMatchObject({ terminal: false, fs: { readTextFile: true } });
    expect(state.clientCapabilities).not.toHaveProperty('elicitation');
    const header = (await readTraceFile(started.trace!)).header;
    expect(header?.clientCapabilities).toMatchObject({ terminal: false });

    await expect(call('qa/set-rules', { sessionId, rules: [{ method: 'fs/read_text_file', action: { type: 'error' }, enabled: true }] })).rejects.toMatchObject({ code: 'bad_params' });
    const rules = await call<QaState['rules']>('qa/set-rules', {
      sessionId,
      rules: [
        { method: 'fs/read_text_file', action: { type: 'manual' }, enabled: true },
        { method: '?', action: { type: 'manual' }, enabled: true },
        { method: 'fs/write_text_file', action: { type: 'error', code: -32042, message: 'disk on fire' }, enabled: true },
        { method: 'session/request_permission', pattern: 'Delete', action: { type: 'deny' }, enabled: true },
      ],
    });
    expect(rules.map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4']);

    const turn = call<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    const pendingOf = async () => (await call<QaState>('qa/state', { sessionId })).pending;
    await expect.poll(async () => (await pendingOf()).map((p) => p.method), { timeout: 15_000 }).toEqual(['fs/read_text_file']);
    const [read] = await pendingOf();
    expect(read!.example).toEqual({ content: '' });
    expect(await call('qa/manual-answer', { sessionId, key: read!.key, result: { content: 'typed by the tester' } })).toEqual({ answered: true });
    await expect.poll(async () => (await pendingOf()).map((p) => p.method)).toEqual(['_vendor/ask']);
    const [ext] = await pendingOf();
    expect(await call('qa/manual-answer', { sessionId, key: ext!.key, error: { code: -32077, message: 'not today' } })).toEqual({ answered: true });
    expect(await call('qa/manual-answer', { sessionId, key: ext!.key, result: {} })).toEqual({ answered: false });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(events.some((e) => e.name === 'qa/manual-changed')).toBe(true);

    const text = await allText(call, sessionId);
    expect(text).toContain('typed by the tester');
    expect(text).toContain('ext failed;');
    expect(text).toContain('write failed;');
    expect(text).toContain('choice=reject-once');
    const errors = await call<InspectorWindowResult>('inspector/window', { sessionId, kinds: ['response'], dirs: ['out'], offset: 0, limit: 50 });
    expect(errors.items.filter((r) => r.error).map((r) => [r.method, r.error!.code])).toEqual([
      ['_vendor/ask', -32077],
      ['fs/write_text_file', -32042],
    ]);
    // The denied permission went through the broker's QA slot, and the trace says so.
    await expect
      .poll(async () => (await readTraceFile(started.trace!)).records.filter((r) => r.kind === 'permission-decided').map((r) => [r.kind === 'permission-decided' && r.by, r.kind === 'permission-decided' && r.rule]))
      .toEqual([['qa', 'qa:deny']]);
  });
});
