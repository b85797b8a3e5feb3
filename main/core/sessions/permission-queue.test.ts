import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { PermissionBroker, type PermissionDecision } from './permission-broker';
import { AlwaysMemory, standardPermissionChain } from './permission-policy';
import { PermissionQueue, type PermissionAnswer } from './permission-queue';

const options: PermissionOption[] = [
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'proceed_always', name: 'Always', kind: 'allow_always' },
  { optionId: 'cancel', name: 'No', kind: 'reject_once' },
];
const params = (sessionId: string, toolCallId: string): RequestPermissionRequest => ({
  sessionId,
  toolCall: { toolCallId, kind: 'edit', title: 'Edit a.ts' },
  options,
});

describe('PermissionQueue', () => {
  it('first answer wins; later answers are told already_resolved', async () => {
    const q = new PermissionQueue();
    const { key, answer } = q.ask('s1', params('s1', 't1'));
    expect(q.resolve(key, { outcome: 'selected', optionId: 'cancel' }, 'user:web')).toEqual({ status: 'resolved' });
    expect(q.resolve(key, { outcome: 'selected', optionId: 'proceed_once' }, 'user:app')).toEqual({
      status: 'already_resolved',
      answer: { outcome: { outcome: 'selected', optionId: 'cancel' }, decidedBy: 'user:web' },
    });
    expect(await answer).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' }, decidedBy: 'user:web' });
    expect(q.pending()).toEqual([]);
    expect(q.resolve('never-asked', { outcome: 'cancelled' }, 'user')).toEqual({ status: 'unknown' });
  });

  it('refuses an option the agent did not offer and keeps the request open', () => {
    const q = new PermissionQueue();
    const { key } = q.ask('s1', params('s1', 't1'));
    expect(q.resolve(key, { outcome: 'selected', optionId: 'allow' }, 'user')).toEqual({
      status: 'invalid_option',
      optionIds: ['proceed_once', 'proceed_always', 'cancel'],
    });
    expect(q.get(key)?.sessionId).toBe('s1');
  });

  it('cancelSession answers every pending request of that session, and only those', async () => {
    const q = new PermissionQueue();
    const a = q.ask('s1', params('s1', 't1'));
    const b = q.ask('s1', params('s1', 't2'));
    const c = q.ask('s2', params('s2', 't3'));
    expect(q.cancelSession('s1')).toBe(2);
    expect(await a.answer).toEqual({ outcome: { outcome: 'cancelled' }, decidedBy: 'session-cancel' });
    expect(await b.answer).toEqual({ outcome: { outcome: 'cancelled' }, decidedBy: 'session-cancel' });
    expect(q.pending().map((p) => p.key)).toEqual([c.key]);
    expect(q.cancelSession('s1')).toBe(0);
  });

  it('the agent withdrawing a request answers it cancelled', async () => {
    const q = new PermissionQueue();
    const ac = new AbortController();
    const { answer } = q.ask('s1', params('s1', 't1'), { signal: ac.signal });
    ac.abort();
    expect(await answer).toEqual({ outcome: { outcome: 'cancelled' }, decidedBy: 'cancel-request' });
  });

  it('listeners follow asks and answers until disposed; a throwing one harms nobody', async () => {
    const q = new PermissionQueue();
    const seen: string[] = [];
    q.onAsked(() => {
      throw new Error('bad ui');
    });
    const asked = q.onAsked((p) => seen.push(`asked ${p.params.toolCall.toolCallId}`));
    q.onResolved((p, a) => seen.push(`resolved ${p.params.toolCall.toolCallId} by ${a.decidedBy}`));
    const first = q.ask('s1', params('s1', 't1'), { key: 'conn1:7' });
    q.resolve('conn1:7', { outcome: 'cancelled' }, 'user');
    asked.dispose();
    q.ask('s1', params('s1', 't2'));
    expect(first.key).toBe('conn1:7');
    expect(seen).toEqual(['asked t1', 'resolved t1 by user']);
    expect(() => q.ask('s1', params('s1', 't3'), { key: q.pending()[0]!.key })).toThrow(/already pending/);
  });
});

describe('PermissionBroker', () => {
  function setup() {
    const queue = new PermissionQueue();
    const memory = new AlwaysMemory();
    const decisions: PermissionDecision[] = [];
    const broker = new PermissionBroker({
      deciders: standardPermissionChain({ memory }),
      queue,
      memory,
      onDecided: (d) => decisions.push(d),
    });
    return { queue, memory, decisions, broker };
  }
  const req = (over: { interactive: boolean; policy?: 'all' | 'none' | 'ask' }) => ({
    sessionId: 's1',
    agentId: 'gemini',
    toolCall: { toolCallId: 't1', kind: 'edit' as const, title: 'Edit src/a.ts' },
    options,
    cwd: '/p',
    ...over,
  });

  it('answers automatically when the policy decides, without queueing', async () => {
    const { broker, queue, decisions } = setup();
    const r = await broker.request(req({ interactive: false, policy: 'all' }));
    expect(r.response).toEqual({ outcome: { outcome: 'selected', optionId: 'proceed_once' } });
    expect(queue.pending()).toEqual([]);
    expect(decisions).toEqual([expect.objectContaining({ decidedBy: 'policy:all', automatic: true, toolCallId: 't1' })]);
  });

  it('queues for a person and remembers an "always" answer for next time', async () => {
    const { broker, queue, decisions } = setup();
    const asked = new Promise<string>((r) => queue.onAsked((p) => r(p.key)));
    const pending = broker.request(req({ interactive: true }));
    const key = await asked;
    expect(queue.get(key)?.context).toMatchObject({ askedBecause: 'default' });
    queue.resolve(key, { outcome: 'selected', optionId: 'proceed_always' }, 'user:app');
    expect((await pending).response.outcome).toEqual({ outcome: 'selected', optionId: 'proceed_always' });

    const again = await broker.request({ ...req({ interactive: true }), toolCall: { toolCallId: 't2', kind: 'edit', title: 'Edit src/other.ts' } });
    expect(again.decision).toMatchObject({ decidedBy: 'remembered', automatic: true });
    expect(decisions.map((d: PermissionDecision) => d.decidedBy)).toEqual(['user:app', 'remembered']);
  });

  it('a cancelled session unblocks the waiting request', async () => {
    const { broker, queue } = setup();
    const asked = new Promise<void>((r) => queue.onAsked(() => r()));
    const pending = broker.request(req({ interactive: true }));
    await asked;
    queue.cancelSession('s1');
    const r: { response: { outcome: PermissionAnswer['outcome'] } } = await pending;
    expect(r.response).toEqual({ outcome: { outcome: 'cancelled' } });
  });
});
