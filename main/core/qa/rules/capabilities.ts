/** Capability honesty, both ways: the agent keeps its promises, and respects ours. */
import { agentMethodGate, booleanOptionsAdvertised, clientMethodGate, contentCapability, promptContent, unadvertisedUpdateCapability } from '../gates';
import { docsLink, IN_ANSWERS, IN_CALLS, type Rule } from '../types';

type Json = Record<string, unknown>;

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const errorOf = (msg: Json): { code?: unknown; message?: unknown } | undefined =>
  Object.hasOwn(msg, 'error') && typeof msg.error === 'object' && msg.error !== null ? (msg.error as Json) : undefined;
const succeeded = (msg: Json): boolean => Object.hasOwn(msg, 'result') && !Object.hasOwn(msg, 'error');

export const advertisedMethodMissing: Rule = {
  id: 'advertised-method-missing',
  severity: 'error',
  rationale: 'A method the agent must implement, or advertised, has to work; answering -32601 breaks clients that trusted the capability.',
  docs: docsLink('advertised-method-missing'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const request = ctx.current.answers;
    if (record.kind !== 'wire' || record.dir !== 'in' || !request || request.unchecked) return;
    if (errorOf(record.msg)?.code !== METHOD_NOT_FOUND) return;
    const gate = agentMethodGate(request.method, ctx.advertisement);
    if (gate.status !== 'baseline' && gate.status !== 'advertised') return;
    const why = gate.status === 'baseline' ? 'every agent must implement it' : `the agent advertised ${gate.capability}`;
    return { key: request.method, message: `${request.method} answered -32601 (method not found), but ${why}`, evidence: [line, request.line] };
  },
};

export const unadvertisedMethodAnswered: Rule = {
  id: 'unadvertised-method-answered',
  severity: 'warning',
  rationale: 'A method that works but is not advertised is invisible to clients, which must treat it as unsupported.',
  docs: docsLink('unadvertised-method-answered'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const request = ctx.current.answers;
    if (record.kind !== 'wire' || record.dir !== 'in' || !request?.unchecked || !succeeded(record.msg)) return;
    const gate = agentMethodGate(request.method, ctx.advertisement);
    if (gate.status !== 'not-advertised') return;
    return { key: request.method, message: `${request.method} was answered although the agent does not advertise ${gate.capability}`, evidence: [line, request.line] };
  },
};

export const unadvertisedClientMethod: Rule = {
  id: 'unadvertised-client-method',
  severity: 'error',
  rationale: 'An agent may call only the client methods the client advertised in initialize; others are refused.',
  docs: docsLink('unadvertised-client-method'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || c.method === undefined || !ctx.clientCapabilities) return;
    const gate = clientMethodGate(c.method, c.params, ctx.clientCapabilities);
    if (!gate || gate.status !== 'not-advertised') return;
    return { key: c.method, message: `The agent called ${c.method}, but the client did not advertise ${gate.capability}`, evidence: [line] };
  },
};

export const unadvertisedUpdate: Rule = {
  id: 'unadvertised-update',
  severity: 'warning',
  rationale: 'Update kinds and option types that need a client capability may only be sent when the client advertised it.',
  docs: docsLink('unadvertised-update'),
  on: [...IN_CALLS, ...IN_ANSWERS],
  observe(record, line, ctx) {
    const c = ctx.current;
    const caps = ctx.clientCapabilities;
    if (record.kind !== 'wire' || record.dir !== 'in' || !caps) return;
    if (c.updateKind) {
      const missing = unadvertisedUpdateCapability(c.updateKind, caps);
      if (missing) return { key: c.updateKind, message: `session/update "${c.updateKind}" needs ${missing}, which the client did not advertise`, evidence: [line] };
    }
    // Boolean config options, in updates and in the answers that carry configOptions.
    const options = c.updateKind === 'config_option_update' ? c.update?.configOptions : c.answers && succeeded(record.msg) ? (record.msg.result as Json | null)?.configOptions : undefined;
    if (Array.isArray(options) && !booleanOptionsAdvertised(caps) && options.some((o) => (o as Json | null)?.type === 'boolean')) {
      return { key: 'boolean-config-option', message: 'A boolean config option was sent, but the client did not advertise clientCapabilities.session.configOptions.boolean', evidence: [line] };
    }
    return undefined;
  },
};

export const advertisedContentRefused: Rule = {
  id: 'advertised-content-refused',
  severity: 'error',
  rationale: 'An agent that advertises a prompt content type must accept prompts that contain it.',
  docs: docsLink('advertised-content-refused'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const request = ctx.current.answers;
    if (record.kind !== 'wire' || record.dir !== 'in' || request?.method !== 'session/prompt' || request.unchecked) return;
    const error = errorOf(record.msg);
    if (error?.code !== INVALID_PARAMS) return;
    const { advertised, unadvertised } = promptContent(request.params?.prompt, ctx.advertisement.capabilities);
    if (advertised.length === 0 || unadvertised.length > 0) return;
    return {
      key: advertised.join(','),
      message: `A prompt with ${advertised.join(', ')} content was refused (-32602: ${String(error.message)}), although the agent advertises ${advertised.map(contentCapability).join(', ')}`,
      evidence: [line, request.line],
    };
  },
};

export const unadvertisedContentAccepted: Rule = {
  id: 'unadvertised-content-accepted',
  severity: 'info',
  rationale: 'An agent that handles a content type without advertising it could advertise it, so that clients send it.',
  docs: docsLink('unadvertised-content-accepted'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const request = ctx.current.answers;
    if (record.kind !== 'wire' || record.dir !== 'in' || request?.method !== 'session/prompt' || !succeeded(record.msg)) return;
    const { unadvertised } = promptContent(request.params?.prompt, ctx.advertisement.capabilities);
    if (unadvertised.length === 0) return;
    return {
      key: unadvertised.join(','),
      message: `A prompt with ${unadvertised.join(', ')} content was accepted, although the agent does not advertise ${unadvertised.map(contentCapability).join(', ')}`,
      evidence: [line, request.line],
    };
  },
};
