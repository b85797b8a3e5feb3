/**
 * Modes, models and config options as the agent advertised them (acp-reference §11): when an agent
 * offers both `modes` and config options, the config options rule; the legacy `set_model` only
 * when the `models` block is the only source. Asking for what was not advertised is refused with
 * the list of what was.
 */
import type { SessionConfigOption } from '../../../common/transcript/acp-types';
import type { SessionState } from '../../../common/transcript/model';
import { SessionError, type AgentSession, type DesiredSettings } from './agent-session';

function selectValues(option: SessionConfigOption): string[] {
  const out: string[] = [];
  for (const o of (option as { options?: unknown[] }).options ?? []) {
    const item = o as { value?: string; options?: Array<{ value?: string }> };
    if (typeof item.value === 'string') out.push(item.value);
    for (const inner of item.options ?? []) if (typeof inner.value === 'string') out.push(inner.value);
  }
  return out;
}

/** The mode config option, when the agent has one (it then rules over `modes`). */
export function modeConfigOption(state: SessionState): SessionConfigOption | undefined {
  return state.configOptions?.find((o) => o.category === 'mode');
}

export async function applyMode(session: AgentSession, modeId: string): Promise<void> {
  const state = session.live.session;
  const option = modeConfigOption(state);
  if (option) return applyConfig(session, option.id, modeId);
  const modes = state.modes?.availableModes ?? [];
  if (modes.length === 0) throw new SessionError(`${session.connection.label} advertises no modes`, 'not_advertised');
  if (!modes.some((m) => m.id === modeId)) {
    throw new SessionError(`${session.connection.label} has no mode "${modeId}"; it offers: ${modes.map((m) => m.id).join(', ')}`, 'not_advertised');
  }
  await session.setMode(modeId);
}

export async function applyConfig(session: AgentSession, configId: string, raw: string): Promise<void> {
  const options = session.live.session.configOptions ?? [];
  const option = options.find((o) => o.id === configId);
  if (!option) {
    const known = options.map((o) => o.id).join(', ') || 'none';
    throw new SessionError(`${session.connection.label} has no config option "${configId}"; it offers: ${known}`, 'not_advertised');
  }
  if (option.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new SessionError(`config option "${configId}" is a boolean: use true or false`, 'not_advertised');
    return session.setConfigOption(configId, raw === 'true');
  }
  const values = selectValues(option);
  if (values.length && !values.includes(raw)) {
    throw new SessionError(`config option "${configId}" has no value "${raw}"; it offers: ${values.join(', ')}`, 'not_advertised');
  }
  return session.setConfigOption(configId, raw);
}

/** The model: a `model` config option when there is one, else legacy `models` + `session/set_model`. */
export async function applyModel(session: AgentSession, modelId: string): Promise<void> {
  const state = session.live.session;
  const option = state.configOptions?.find((o) => o.category === 'model');
  if (option) return applyConfig(session, option.id, modelId);
  const models = state.models?.availableModels ?? [];
  if (models.length === 0) throw new SessionError(`${session.connection.label} advertises no models`, 'not_advertised');
  if (!models.some((m) => m.modelId === modelId)) {
    throw new SessionError(`${session.connection.label} has no model "${modelId}"; it offers: ${models.map((m) => m.modelId).join(', ')}`, 'not_advertised');
  }
  await session.setModel(modelId);
}

/**
 * Put a restarted agent's session back the way the user had it: config options first (they rule),
 * then the mode and the model. What the new agent no longer offers is reported in the transcript
 * as a notice, not an error: the session is usable either way.
 */
export async function reapplySettings(session: AgentSession, desired: DesiredSettings): Promise<void> {
  const steps: Array<[string, () => Promise<void>]> = [
    ...Object.entries(desired.config).map(([id, value]): [string, () => Promise<void>] => [`config option ${id}`, () => applyConfig(session, id, String(value))]),
    ...(desired.modeId ? [[`mode ${desired.modeId}`, () => applyMode(session, desired.modeId!)] as [string, () => Promise<void>]] : []),
    ...(desired.modelId ? [[`model ${desired.modelId}`, () => applyModel(session, desired.modelId!)] as [string, () => Promise<void>]] : []),
  ];
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (err) {
      session.connection.notice('warning', `Could not restore ${what} after the restart: ${err instanceof Error ? err.message : String(err)}`, session.id);
    }
  }
}
