import { describe, expect, it } from 'vitest';
import type { TraceRecord, WireRecord } from '../../../common/trace/records';
import { SessionRouter } from './session-router';

let t = 0;
const wire = (dir: 'in' | 'out', msg: Record<string, unknown>): WireRecord => ({ kind: 'wire', t: t++, dir, msg: { jsonrpc: '2.0', ...msg } as WireRecord['msg'] });
const update = (agentId: string) => wire('in', { method: 'session/update', params: { sessionId: agentId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } });

describe('SessionRouter', () => {
  it('holds updates that arrive before the session/new answer, then hands them over before it', () => {
    const r = new SessionRouter();
    expect(r.route(wire('out', { id: 0, method: 'initialize', params: {} }))).toEqual({ to: 'all' });
    r.expectOpening('WB1');
    const req = wire('out', { id: 1, method: 'session/new', params: { cwd: '/p', mcpServers: [] } });
    expect(r.route(req)).toEqual({ to: 'session', sessionId: 'WB1' });
    const early = update('agent-a');
    expect(r.route(early)).toEqual({ to: 'held' });
    const answer = wire('in', { id: 1, result: { sessionId: 'agent-a' } });
    const route = r.route(answer);
    expect(route).toMatchObject({ to: 'session', sessionId: 'WB1' });
    expect(route.to === 'session' && route.before).toEqual([early]);
    expect(early.sessionId).toBe('WB1');
    expect(answer.agentSessionId).toBe('agent-a');
    expect(r.route(update('agent-a'))).toEqual({ to: 'session', sessionId: 'WB1' });
  });

  it('binds load and resume at request time, so replayed updates go straight to the session', () => {
    const r = new SessionRouter();
    r.expectOpening('WB2');
    r.route(wire('out', { id: 5, method: 'session/load', params: { sessionId: 'old', cwd: '/p', mcpServers: [] } }));
    expect(r.route(update('old'))).toEqual({ to: 'session', sessionId: 'WB2' });
    const answer = wire('in', { id: 5, result: null });
    expect(r.route(answer)).toEqual({ to: 'session', sessionId: 'WB2' });
    expect(answer.agentSessionId).toBe('old');
  });

  it('routes the agent requests and our answers to them by session, though both sides count ids from 0', () => {
    const r = new SessionRouter();
    r.expectOpening('WB3');
    r.route(wire('out', { id: 0, method: 'session/new', params: {} }));
    r.route(wire('in', { id: 0, result: { sessionId: 's3' } }));
    const ask = wire('in', { id: 0, method: 'session/request_permission', params: { sessionId: 's3', toolCall: {}, options: [] } });
    expect(r.route(ask)).toEqual({ to: 'session', sessionId: 'WB3' });
    const ours = wire('out', { id: 1, method: 'session/prompt', params: { sessionId: 's3', prompt: [] } });
    expect(r.route(ours)).toEqual({ to: 'session', sessionId: 'WB3' });
    const answer = wire('out', { id: 0, result: { outcome: { outcome: 'cancelled' } } });
    expect(r.route(answer)).toEqual({ to: 'session', sessionId: 'WB3' });
    expect(answer.agentSessionId).toBe('s3');
  });

  it('keeps two sessions on one connection apart', () => {
    const r = new SessionRouter();
    for (const [wb, agentId, id] of [['A', 'a', 1], ['B', 'b', 2]] as const) {
      r.expectOpening(wb);
      r.route(wire('out', { id, method: 'session/new', params: {} }));
      r.route(wire('in', { id, result: { sessionId: agentId } }));
    }
    expect(r.route(update('b'))).toEqual({ to: 'session', sessionId: 'B' });
    expect(r.route(update('a'))).toEqual({ to: 'session', sessionId: 'A' });
  });

  it('holds updates for a session id nobody opened and counts them', () => {
    const r = new SessionRouter();
    r.route(update('ghost'));
    r.route(update('ghost'));
    expect(r.heldCount()).toBe(2);
  });

  it('tags workbench events that already name their session', () => {
    const r = new SessionRouter();
    const rec: TraceRecord = { kind: 'cancel', t: 1, sessionId: 'WB9' };
    expect(r.route(rec)).toEqual({ to: 'session', sessionId: 'WB9' });
  });
});
