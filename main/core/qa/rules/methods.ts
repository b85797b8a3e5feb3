/** Rules about what the agent calls and sends: methods, update kinds, the protocol version. */
import { acpSchema } from '../schema/acp-schema';
import { docsLink, IN_ANSWERS, IN_CALLS, type Rule } from '../types';

export const unknownMethod: Rule = {
  id: 'unknown-method',
  severity: 'error',
  rationale: 'Only ACP client methods and "_"-prefixed extensions may be sent to a client; other names are reserved by the protocol.',
  docs: docsLink('unknown-method'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || c.method === undefined) return;
    const method = c.method;
    if (method.startsWith('_') || acpSchema().clientMethods.has(method)) return;
    const kind = c.envelope?.shape === 'request' ? 'request' : 'notification';
    const why = acpSchema().agentMethods.has(method) ? ` (${method} is a method of the agent, not of the client)` : '';
    return { key: `${kind}:${method}`, message: `The agent sent the ${kind} "${method}", which is not an ACP client method${why}`, evidence: [line] };
  },
};

export const unknownUpdateKind: Rule = {
  id: 'unknown-update-kind',
  severity: 'error',
  rationale: 'A session/update of a kind the schema does not define fails validation in SDK-based clients and is dropped whole.',
  docs: docsLink('unknown-update-kind'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    const kind = ctx.current.updateKind;
    if (record.kind !== 'wire' || record.dir !== 'in' || kind === undefined || acpSchema().updateKinds.has(kind)) return;
    return { key: kind, message: `session/update of unknown kind "${kind}"`, evidence: [line] };
  },
};

export const protocolVersion: Rule = {
  id: 'protocol-version',
  severity: 'error',
  rationale: 'An agent that supports the requested protocol version must answer it; a different version makes a v1 client disconnect.',
  docs: docsLink('protocol-version'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    const c = ctx.current;
    if (record.kind !== 'wire' || record.dir !== 'in' || c.answers?.method !== 'initialize') return;
    const result = record.msg.result as Record<string, unknown> | undefined;
    const answered = result?.protocolVersion;
    const asked = ctx.requestedProtocolVersion;
    if (typeof answered !== 'number' || !Number.isInteger(answered) || asked === undefined || answered === asked) return;
    return { message: `The client asked for protocol version ${asked}; the agent answered ${answered}`, evidence: [line, c.answers.line] };
  },
};
