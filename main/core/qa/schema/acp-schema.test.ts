import { describe, expect, it } from 'vitest';
import { acpSchema } from './acp-schema';

const schema = acpSchema();

describe('the ACP schema for conformance', () => {
  it('knows the client methods, the agent results and the update kinds', () => {
    expect([...schema.clientMethods.keys()]).toEqual(
      expect.arrayContaining(['session/update', 'session/request_permission', 'fs/read_text_file', 'terminal/create', 'elicitation/create', '$/cancel_request']),
    );
    expect(schema.agentResults.has('session/prompt')).toBe(true);
    expect(schema.agentResults.has('initialize')).toBe(true);
    expect(schema.agentMethods.has('session/prompt')).toBe(true);
    expect(schema.updateKinds.has('agent_message_chunk')).toBe(true);
    expect(schema.updateKinds.has('plan_update')).toBe(true);
    expect(schema.updateKinds.has('vendor_thing')).toBe(false);
  });

  it('accepts valid updates', () => {
    const ok = (update: object) => schema.validateParams('session/update', { sessionId: 's', update })!;
    expect(ok({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm1' })).toEqual({ errors: [], tolerated: [] });
    expect(ok({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', kind: 'edit', status: 'pending', content: [{ type: 'diff', path: '/a', oldText: null, newText: 'b' }] }).errors).toEqual([]);
    expect(ok({ sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 0.1, currency: 'USD' } }).errors).toEqual([]);
    expect(ok({ sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'high', status: 'pending' }] }).errors).toEqual([]);
  });

  it('names the path and the problem of a violation', () => {
    const r = schema.validateParams('session/update', { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 't' } })!;
    expect(r.errors).toEqual([{ path: 'params.update.title', message: 'required property is missing' }]);
    const chunk = schema.validateParams('session/update', { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } } })!;
    expect(chunk.errors).toEqual([{ path: 'params.update.content.text', message: 'required property is missing' }]);
    const mode = schema.validateParams('session/update', { sessionId: 's', update: { sessionUpdate: 'current_mode_update', modeId: 'x' } })!;
    expect(mode.errors.map((e) => e.path)).toEqual(['params.update.currentModeId']);
    const noSession = schema.validateParams('session/update', { update: { sessionUpdate: 'plan', entries: [] } })!;
    expect(noSession.errors).toEqual([{ path: 'params.sessionId', message: 'required property is missing' }]);
  });

  it('reports what the SDK tolerates as tolerated, not as errors', () => {
    const r = schema.validateParams('session/update', { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind: 'bogus' } })!;
    expect(r.errors).toEqual([]);
    expect(r.tolerated).toHaveLength(1);
    expect(r.tolerated[0]!.path).toBe('params.update.kind');
    const items = schema.validateParams('session/update', { sessionId: 's', update: { sessionUpdate: 'tool_call_update', toolCallId: 't', locations: [{ line: 1 }] } })!;
    expect(items.errors).toEqual([]);
    expect(items.tolerated.map((i) => i.path)).toEqual(['params.update.locations[0].path']);
  });

  it('validates results by the method they answer', () => {
    expect(schema.validateResult('session/prompt', { stopReason: 'end_turn' })!.errors).toEqual([]);
    const bad = schema.validateResult('session/prompt', { stopReason: 'bogus' })!;
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.path).toBe('result.stopReason');
    expect(bad.errors[0]!.message).toContain('"end_turn"');
    expect(schema.validateResult('session/load', null)!.errors).toEqual([]);
    expect(schema.validateResult('session/new', {})!.errors).toEqual([{ path: 'result.sessionId', message: 'required property is missing' }]);
    expect(schema.validateResult('initialize', { protocolVersion: '1' })!.errors[0]!.path).toBe('result.protocolVersion');
    expect(schema.validateResult('_vendor/x', {})).toBeUndefined();
  });

  it('validates request params of client methods', () => {
    expect(schema.validateParams('fs/read_text_file', { sessionId: 's', path: '/a' })!.errors).toEqual([]);
    expect(schema.validateParams('session/request_permission', { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] })!.errors).toEqual([]);
    expect(schema.validateParams('session/request_permission', { sessionId: 's', toolCall: {}, options: [] })!.errors.map((e) => e.path)).toEqual(['params.toolCall.toolCallId']);
    expect(schema.validateParams('$/cancel_request', { requestId: 3 })!.errors).toEqual([]);
    expect(schema.validateParams('elicitation/create', { sessionId: 's', message: 'm', mode: 'form', requestedSchema: { type: 'object', properties: {} } })!.errors).toEqual([]);
  });
});
