/**
 * Capability gates, both ways: which agent methods the agent advertised, which client methods and
 * update kinds we advertised, which prompt content the agent accepts. Omitted means unsupported
 * (acp-reference §1); presence objects (`{}`) mean supported.
 */
type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== false;

export type GateStatus = 'baseline' | 'advertised' | 'not-advertised' | 'ungated';

export interface Gate {
  status: GateStatus;
  /** The capability that gates it, for messages. */
  capability?: string;
}

/** Every agent must implement these (authenticate only when it lists methods, and then it is sent). */
const BASELINE = new Set(['initialize', 'session/new', 'session/prompt', 'authenticate']);

const SESSION_CAPABILITY: Record<string, string> = {
  'session/list': 'list',
  'session/resume': 'resume',
  'session/fork': 'fork',
  'session/close': 'close',
  'session/delete': 'delete',
  'session/archive': 'archive',
  'session/unarchive': 'archive',
  'session/status': 'status',
  'session/set_title': 'title',
};

export interface AgentAdvertisement {
  /** `agentCapabilities` of the initialize answer. */
  capabilities: Json;
  /** A session setup answer carried `modes` / `configOptions` (set_mode / set_config_option then exist). */
  modes: boolean;
  configOptions: boolean;
}

/** Whether the agent promised to implement a client→agent method. */
export function agentMethodGate(method: string, ad: AgentAdvertisement): Gate {
  if (BASELINE.has(method)) return { status: 'baseline' };
  const caps = ad.capabilities;
  const gated = (ok: boolean, capability: string): Gate => ({ status: ok ? 'advertised' : 'not-advertised', capability });
  if (method === 'session/load') return gated(caps.loadSession === true, 'agentCapabilities.loadSession');
  const sessionKey = SESSION_CAPABILITY[method];
  if (sessionKey) return gated(present(obj(caps.sessionCapabilities)[sessionKey]), `agentCapabilities.sessionCapabilities.${sessionKey}`);
  if (method === 'logout') return gated(present(obj(caps.auth).logout), 'agentCapabilities.auth.logout');
  if (method === 'auth/status') return gated(present(obj(caps.auth).status), 'agentCapabilities.auth.status');
  if (method.startsWith('providers/')) return gated(present(caps.providers), 'agentCapabilities.providers');
  if (method === 'session/set_mode') return gated(ad.modes, '"modes" in a session setup answer');
  if (method === 'session/set_config_option') return gated(ad.configOptions, '"configOptions" in a session setup answer');
  return { status: 'ungated' };
}

/** Whether we advertised a client method the agent calls; undefined when no capability gates it. */
export function clientMethodGate(method: string, params: Json | undefined, clientCaps: Json): Gate | undefined {
  const fs = obj(clientCaps.fs);
  if (method === 'fs/read_text_file') return { status: fs.readTextFile === true ? 'advertised' : 'not-advertised', capability: 'clientCapabilities.fs.readTextFile' };
  if (method === 'fs/write_text_file') return { status: fs.writeTextFile === true ? 'advertised' : 'not-advertised', capability: 'clientCapabilities.fs.writeTextFile' };
  if (method.startsWith('terminal/')) return { status: clientCaps.terminal === true ? 'advertised' : 'not-advertised', capability: 'clientCapabilities.terminal' };
  if (method === 'elicitation/create') {
    const mode = typeof params?.mode === 'string' ? params.mode : 'form';
    return { status: present(obj(clientCaps.elicitation)[mode]) ? 'advertised' : 'not-advertised', capability: `clientCapabilities.elicitation.${mode}` };
  }
  if (method === 'elicitation/complete') return { status: present(obj(clientCaps.elicitation).url) ? 'advertised' : 'not-advertised', capability: 'clientCapabilities.elicitation.url' };
  return undefined;
}

/**
 * A Map, not an object: asked for every update of every live connection with the kind string the
 * message was parsed into, which an object looks up the slow way (and an object would also answer
 * for `constructor` or `__proto__`).
 */
const UPDATE_CAPABILITY = new Map<string, [path: string[], name: string]>([
  ['plan_update', [['plan'], 'clientCapabilities.plan']],
  ['plan_removed', [['plan'], 'clientCapabilities.plan']],
  ['notice', [['session', 'notices'], 'clientCapabilities.session.notices']],
  ['compaction_update', [['session', 'compaction'], 'clientCapabilities.session.compaction']],
  ['compaction_summary_chunk', [['session', 'compaction'], 'clientCapabilities.session.compaction']],
  ['subagent_update', [['subagents'], 'clientCapabilities.subagents']],
  ['session_message', [['subagents'], 'clientCapabilities.subagents']],
  ['session_message_chunk', [['subagents'], 'clientCapabilities.subagents']],
]);

/** The capability an update kind needs and we did not advertise; undefined when allowed. */
export function unadvertisedUpdateCapability(kind: string, clientCaps: Json): string | undefined {
  const gate = UPDATE_CAPABILITY.get(kind);
  if (!gate) return undefined;
  let node: unknown = clientCaps;
  for (const key of gate[0]) node = obj(node)[key];
  return present(node) ? undefined : gate[1];
}

/** Boolean config options need `session.configOptions.boolean`. */
export function booleanOptionsAdvertised(clientCaps: Json): boolean {
  return present(obj(obj(obj(clientCaps.session).configOptions)).boolean);
}

const CONTENT_CAPABILITY: Record<string, string> = { image: 'image', audio: 'audio', resource: 'embeddedContext' };

/** Gated content types in a prompt, split by whether the agent advertised them. */
export function promptContent(prompt: unknown, agentCaps: Json): { advertised: string[]; unadvertised: string[] } {
  const caps = obj(agentCaps.promptCapabilities);
  const advertised = new Set<string>();
  const unadvertised = new Set<string>();
  for (const block of Array.isArray(prompt) ? prompt : []) {
    const type = obj(block).type;
    if (typeof type !== 'string') continue;
    const flag = CONTENT_CAPABILITY[type];
    if (!flag) continue;
    (caps[flag] === true ? advertised : unadvertised).add(type);
  }
  return { advertised: [...advertised], unadvertised: [...unadvertised] };
}

export const contentCapability = (type: string): string => `promptCapabilities.${CONTENT_CAPABILITY[type] ?? type}`;
