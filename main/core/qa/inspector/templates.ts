/**
 * Templates for the raw request composer: every agent method of the spec (acp-reference §5.1),
 * filled with the session's ids, marked with whether the agent advertised it; and one template
 * per vendor key the agent put in `_meta` (extension methods start with `_`; the agent's docs say
 * which exist, so the name is left for the tester to finish).
 */
import type { ComposerTemplate } from '../../../../common/api/qa-types';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const present = (v: unknown) => v !== undefined && v !== null && v !== false;

export interface TemplateContext {
  /** The `initialize` result (null before it). */
  init: Json | null | undefined;
  agentSessionId?: string | undefined;
  cwd: string;
}

export function composerTemplates(ctx: TemplateContext): ComposerTemplate[] {
  const sessionId = ctx.agentSessionId ?? '<session id>';
  const caps = obj(ctx.init?.agentCapabilities);
  const session = obj(caps.sessionCapabilities);
  const gate = (v: unknown): boolean | null => (ctx.init ? present(v) : null);
  const firstAuth = (Array.isArray(ctx.init?.authMethods) ? (ctx.init!.authMethods as Json[]) : [])[0];
  const spec = (method: string, params: unknown, advertised: boolean | null, note?: string, kind: 'request' | 'notification' = 'request'): ComposerTemplate => ({
    method,
    kind,
    params,
    source: 'spec',
    advertised,
    ...(note ? { note } : {}),
  });
  const templates: ComposerTemplate[] = [
    spec('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'acp-workbench', version: '0' } }, null, 'again, on a running connection'),
    spec('authenticate', { methodId: typeof firstAuth?.id === 'string' ? firstAuth.id : '<method id>' }, ctx.init ? Boolean(firstAuth) : null),
    spec('logout', {}, gate(obj(caps.auth).logout)),
    spec('auth/status', {}, gate(obj(caps.auth).status), 'unstable'),
    spec('session/new', { cwd: ctx.cwd, mcpServers: [] }, null, 'opens a session the pane does not show'),
    spec('session/load', { sessionId, cwd: ctx.cwd, mcpServers: [] }, ctx.init ? caps.loadSession === true : null),
    spec('session/resume', { sessionId, cwd: ctx.cwd }, gate(session.resume)),
    spec('session/fork', { sessionId, cwd: ctx.cwd }, gate(session.fork), 'unstable'),
    spec('session/list', { cwd: ctx.cwd }, gate(session.list)),
    spec('session/delete', { sessionId }, gate(session.delete)),
    spec('session/close', { sessionId }, gate(session.close)),
    spec('session/archive', { sessionId }, gate(session.archive), 'unstable'),
    spec('session/unarchive', { sessionId }, gate(session.archive), 'unstable'),
    spec('session/status', { sessionId }, gate(session.status), 'unstable'),
    spec('session/set_title', { sessionId, title: 'New title' }, gate(session.title), 'unstable'),
    spec('session/set_mode', { sessionId, modeId: '<mode id>' }, null),
    spec('session/set_config_option', { sessionId, configId: '<config id>', value: '<value>' }, null),
    spec('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hello' }] }, null),
    spec('session/cancel', { sessionId }, null, undefined, 'notification'),
    spec('providers/list', {}, gate(caps.providers), 'unstable'),
    spec('providers/set', { providerId: '<provider id>', apiType: 'openai', baseUrl: 'https://example.invalid/v1' }, gate(caps.providers), 'unstable'),
    spec('providers/disable', { providerId: '<provider id>' }, gate(caps.providers), 'unstable'),
    spec('session/set_model', { sessionId, modelId: '<model id>' }, null, 'legacy'),
    spec('$/cancel_request', { requestId: 0 }, null, 'cancels one of our pending requests', 'notification'),
  ];
  const vendorKeys = new Set<string>();
  for (const meta of [obj(ctx.init?._meta), obj(caps._meta), obj(session._meta)]) for (const key of Object.keys(meta)) vendorKeys.add(key);
  for (const key of [...vendorKeys].sort()) {
    const method = key.startsWith('_') ? key : `_${key}/`;
    templates.push({
      method,
      kind: 'request',
      params: { sessionId },
      source: 'extension',
      advertised: true,
      note: `the agent named "${key}" in _meta; complete the method name from its documentation`,
    });
  }
  return templates;
}
