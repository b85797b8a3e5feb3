import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSdk } from '../../acp/sdk-runtime';
import type { PermissionInput } from '../../sessions/permission-chain';
import { checkRules, findRule, patternMatches } from './fault-rules';
import { DENIED_CODE, FaultSet } from './fault-set';

// The handlers throw the SDK's RequestError, which a connection loads at its start (sdk-runtime.ts).
beforeAll(() => loadSdk());

const req = (implemented = true) => ({ requestId: 7, signal: new AbortController().signal, implemented });
const permission = (toolCallId = 'c1', title = 'Edit src/a.ts'): PermissionInput => ({
  sessionId: 'S',
  agentId: 'a',
  toolCall: { toolCallId, title },
  options: [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
  interactive: true,
});

describe('fault rules', () => {
  it('match by method (exact, terminal/*, ? for unimplemented, *) and pattern (substring or wildcard)', () => {
    const rules = checkRules(
      [
        { method: 'fs/read_text_file', pattern: '*.env', action: { type: 'deny' }, enabled: true },
        { method: 'terminal/*', action: { type: 'delay', ms: 5 }, enabled: true },
        { method: '?', action: { type: 'manual' }, enabled: true },
        { method: 'fs/write_text_file', action: { type: 'error', code: -32000 }, enabled: false },
      ],
      () => 'id',
    );
    expect(findRule(rules, 'fs/read_text_file', { path: '/p/.env' }, true)?.action.type).toBe('deny');
    expect(findRule(rules, 'fs/read_text_file', { path: '/p/a.ts' }, true)).toBeUndefined();
    expect(findRule(rules, 'terminal/output', {}, true)?.action.type).toBe('delay');
    expect(findRule(rules, '_vendor/x', {}, false)?.action.type).toBe('manual');
    expect(findRule(rules, 'fs/write_text_file', {}, true)).toBeUndefined(); // disabled
    expect(patternMatches('src/', '/p/src/a.ts')).toBe(true);
    expect(patternMatches('/p/*.ts', '/p/src/a.ts')).toBe(true);
    expect(patternMatches('/p/*.js', '/p/src/a.ts')).toBe(false);
  });

  it('refuses rules the tester got wrong, with words', () => {
    expect(() => checkRules([{ method: '', action: { type: 'deny' } }], () => 'x')).toThrow(/choose the method/);
    expect(() => checkRules([{ method: 'fs/read_text_file', action: { type: 'error', code: 'x' } }], () => 'x')).toThrow(/integer code/);
    expect(() => checkRules([{ method: 'fs/read_text_file', action: { type: 'delay', ms: -1 } }], () => 'x')).toThrow(/delay/);
    expect(() => checkRules([{ method: 'fs/read_text_file', action: { type: 'explode' } }], () => 'x')).toThrow(/unknown action/);
    expect(checkRules([{ method: 'x', action: { type: 'error', code: -1 } }], () => 'n1')).toEqual([
      { id: 'n1', method: 'x', action: { type: 'error', code: -1, message: 'Error injected by a QA rule' }, enabled: true },
    ]);
  });
});

describe('FaultSet', () => {
  it('passes everything (synchronously) without rules', () => {
    const faults = new FaultSet('S');
    expect(faults.intercept('fs/read_text_file', { path: '/a' }, req())).toBeUndefined();
  });

  it('answers errors, denials, other file content, and delays before the normal handler', async () => {
    const faults = new FaultSet('S');
    faults.setRules([
      { method: 'fs/write_text_file', action: { type: 'error', code: -32099, message: 'disk full' }, enabled: true },
      { method: 'terminal/create', action: { type: 'deny' }, enabled: true },
      { method: 'elicitation/create', action: { type: 'deny' }, enabled: true },
      { method: 'fs/read_text_file', pattern: 'a.txt', action: { type: 'content', text: 'one\ntwo\nthree\n' }, enabled: true },
      { method: 'fs/read_text_file', action: { type: 'delay', ms: 30 }, enabled: true },
    ]);
    await expect(faults.intercept('fs/write_text_file', {}, req())).rejects.toMatchObject({ code: -32099, message: 'disk full' });
    await expect(faults.intercept('terminal/create', { command: 'ls' }, req())).rejects.toMatchObject({ code: DENIED_CODE });
    await expect(faults.intercept('elicitation/create', {}, req())).resolves.toEqual({ answer: { action: 'decline' } });
    await expect(faults.intercept('fs/read_text_file', { path: '/p/a.txt', line: 2, limit: 1 }, req())).resolves.toEqual({ answer: { content: 'two\n' } });
    const t0 = Date.now();
    await expect(faults.intercept('fs/read_text_file', { path: '/p/b.txt' }, req())).resolves.toBeUndefined();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('holds a request for a manual answer: a result, or an error; the queue says what it holds', async () => {
    const faults = new FaultSet('S');
    let changes = 0;
    faults.manual.onChange(() => changes++);
    faults.setRules([{ method: '*', action: { type: 'manual' }, enabled: true }]);
    const read = faults.intercept('fs/read_text_file', { path: '/p/a.txt' }, req());
    const ext = faults.intercept('_vendor/x', { q: 1 }, { ...req(false), requestId: 'r-9' });
    const pending = faults.pending();
    expect(pending.map((p) => [p.method, p.requestId, p.example])).toEqual([
      ['fs/read_text_file', 7, { content: '' }],
      ['_vendor/x', 'r-9', {}],
    ]);
    expect(faults.answer(pending[0]!.key, { result: { content: 'typed by hand' } })).toBe(true);
    expect(faults.answer(pending[0]!.key, { result: {} })).toBe(false); // first answer wins
    await expect(read).resolves.toEqual({ answer: { content: 'typed by hand' } });
    faults.answer(pending[1]!.key, { error: { code: -32001, message: 'nope', data: { why: 1 } } });
    const err = await ext!.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ code: -32001, message: 'nope', data: { why: 1 } });
    expect(changes).toBe(4);
    expect(faults.pending()).toEqual([]);
  });

  it('marks a withdrawn request and answers what is left when disposed', async () => {
    const faults = new FaultSet('S');
    faults.setRules([{ method: 'terminal/*', action: { type: 'manual' }, enabled: true }]);
    const abort = new AbortController();
    const held = faults.intercept('terminal/output', {}, { requestId: 1, signal: abort.signal, implemented: true })!;
    abort.abort();
    expect(faults.pending()[0]!.withdrawn).toBe(true);
    faults.dispose();
    await expect(held).rejects.toMatchObject({ code: -32603 });
  });

  it('decides permissions in the broker slot: deny, manual (with the request id the handler saw), error, pass', async () => {
    const faults = new FaultSet('S');
    expect(await faults.decidePermission(permission())).toEqual({ type: 'pass' });
    faults.setRules([
      { method: 'session/request_permission', pattern: 'secret', action: { type: 'deny' }, enabled: true },
      { method: 'session/request_permission', pattern: 'boom', action: { type: 'error', code: -32050, message: 'boom' }, enabled: true },
      { method: 'session/request_permission', action: { type: 'manual' }, enabled: true },
    ]);
    expect(await faults.decidePermission(permission('c0', 'Read secret'))).toEqual({ type: 'decided', outcome: { outcome: 'selected', optionId: 'reject' }, by: 'qa:deny' });
    await expect(faults.decidePermission(permission('c9', 'boom'))).rejects.toMatchObject({ code: -32050 });

    const params = { sessionId: 'agent-s', toolCall: { toolCallId: 'c1', title: 'Edit src/a.ts' }, options: permission().options };
    expect(faults.intercept('session/request_permission', params, { ...req(), requestId: 3 })).toBeUndefined();
    const decision = faults.decidePermission(permission());
    await new Promise((r) => setTimeout(r, 0));
    const [held] = faults.pending();
    expect(held).toMatchObject({ method: 'session/request_permission', requestId: 3, params, example: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    faults.answer(held!.key, { result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    expect(await decision).toEqual({ type: 'decided', outcome: { outcome: 'selected', optionId: 'allow' }, by: 'qa:manual' });

    // The transcript's permission card may answer it too (by the agent's request id).
    faults.intercept('session/request_permission', { ...params, toolCall: { toolCallId: 'c3' } }, { ...req(), requestId: 4 });
    const fromCard = faults.decidePermission(permission('c3'));
    await new Promise((r) => setTimeout(r, 0));
    expect(faults.answerHeldPermission(99, { outcome: 'cancelled' })).toBe(false);
    expect(faults.answerHeldPermission(4, { outcome: 'selected', optionId: 'reject' })).toBe(true);
    expect(await fromCard).toMatchObject({ outcome: { outcome: 'selected', optionId: 'reject' }, by: 'qa:manual' });

    const later = faults.decidePermission(permission('c2'));
    await new Promise((r) => setTimeout(r, 0));
    expect(faults.cancelPermissions()).toBe(1);
    expect(await later).toMatchObject({ outcome: { outcome: 'cancelled' } });
  });
});
