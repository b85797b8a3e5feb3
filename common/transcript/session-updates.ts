/**
 * Session-wide updates (acp-reference §6, §10, §11, §22.10–11): plan, command list and config
 * options replace whole; session info patches (null clears); modes change on the agent's word or on
 * our `set_mode` being acknowledged. Plans, usage, command lists and info are upserted once per turn
 * — agents resend them (Claude sends each plan twice) and the transcript should not repeat itself.
 */
import { isJsonObject, num, obj, str, type JsonObject, type JsonValue } from '../trace/json';
import type { ConfigChangeEntry, ConfigValueChange, EntryFlag } from './model';
import { asAvailableCommands, asConfigOptions, asPlanEntries } from './normalize';
import type { SessionConfigOption } from './acp-types';
import type { Step } from './step';

export function onPlan(step: Step, update: JsonObject): void {
  step.disarmEcho();
  const entries = asPlanEntries(update.entries);
  const existing = step.s.turn.planEntryId;
  if (existing) {
    step.emit({ op: 'replace-plan', id: existing, entries });
    return;
  }
  const id = step.append({ kind: 'plan', entries });
  step.turn().planEntryId = id;
  step.setSession({ planEntryId: id });
}

export function onAvailableCommands(step: Step, update: JsonObject): void {
  const commands = asAvailableCommands(update.availableCommands);
  step.setSession({ availableCommands: commands });
  const existing = step.s.turn.commandsEntryId;
  if (existing) step.emit({ op: 'patch-entry', id: existing, fields: { commands } });
  else step.turn().commandsEntryId = step.append({ kind: 'available_commands', commands });
}

export function onUsage(step: Step, update: JsonObject): void {
  const usage: { used?: number; size?: number; cost?: { amount: number; currency: string } | null } = {};
  const used = num(update, 'used');
  const size = num(update, 'size');
  if (used !== undefined) usage.used = used;
  if (size !== undefined) usage.size = size;
  if (update.cost === null) usage.cost = null;
  else {
    const cost = obj(update, 'cost');
    if (cost && typeof cost.amount === 'number' && typeof cost.currency === 'string') usage.cost = { amount: cost.amount, currency: cost.currency };
  }
  step.setSession({ usage });
  const existing = step.s.turn.usageEntryId;
  if (existing) step.emit({ op: 'patch-entry', id: existing, fields: usage });
  else step.turn().usageEntryId = step.append({ kind: 'usage', ...usage });
}

/** `session_info_update`: omitted = unchanged, null = clear. */
export function onSessionInfo(step: Step, update: JsonObject): void {
  const fields: { title?: string | null; updatedAt?: string | null } = {};
  for (const key of ['title', 'updatedAt'] as const) {
    const v = update[key];
    if (v === null || typeof v === 'string') fields[key] = v;
  }
  if ('title' in fields) step.s.title = fields.title;
  if ('updatedAt' in fields) step.s.updatedAt = fields.updatedAt;
  step.setSession(fields);
  const existing = step.s.turn.infoEntryId;
  if (existing) step.emit({ op: 'patch-entry', id: existing, fields });
  else step.turn().infoEntryId = step.append({ kind: 'session_info', ...fields });
}

/** `current_mode_update`; the docs' example keys it `modeId`, which is accepted and flagged (§17.4). */
export function onModeUpdate(step: Step, update: JsonObject): void {
  const current = str(update, 'currentModeId');
  const legacy = current === undefined ? str(update, 'modeId') : undefined;
  const modeId = current ?? legacy;
  if (modeId === undefined) {
    step.append({ kind: 'unknown_update', sessionUpdate: 'current_mode_update', raw: update });
    return;
  }
  changeMode(step, modeId, 'agent', legacy !== undefined ? ['mode-id-key'] : []);
}

export function changeMode(step: Step, modeId: string, source: 'agent' | 'set_mode', flags: EntryFlag[] = []): void {
  const previous = step.s.modes?.currentModeId;
  if (previous === modeId) return;
  step.s.modes = { currentModeId: modeId, availableModes: step.s.modes?.availableModes ?? [] };
  step.setSession({ modes: step.s.modes });
  mirrorModeOption(step, previous, modeId);
  step.append({ kind: 'mode_change', modeId, source, ...(previous !== undefined ? { previousModeId: previous } : {}) }, flags);
}

export function onConfigOptionUpdate(step: Step, update: JsonObject): void {
  replaceConfigOptions(step, asConfigOptions(update.configOptions), 'agent');
}

/** Replaces the whole option set and records which current values changed, if any did. */
export function replaceConfigOptions(step: Step, options: SessionConfigOption[], source: ConfigChangeEntry['source'], quiet = false): void {
  const first = step.s.configValues.size === 0;
  const changes: ConfigValueChange[] = [];
  const values = new Map<string, { name?: string; value: JsonValue }>();
  for (const o of options) {
    const value = o.currentValue ?? null;
    values.set(o.id, { name: o.name, value });
    const before = step.s.configValues.get(o.id);
    if (!before || JSON.stringify(before.value) !== JSON.stringify(value)) {
      changes.push({ configId: o.id, name: o.name, to: value, ...(before ? { from: before.value } : {}) });
    }
  }
  step.s.configValues = values;
  step.s.configOptions = options;
  step.setSession({ configOptions: options });
  // The first option set (from session/new, or the first update) is the starting point, not a change.
  if (!quiet && !first && changes.length > 0) step.append({ kind: 'config_change', changes, source });
}

/**
 * One option's current value changed without a new option set (an acknowledged
 * `set_config_option` whose answer left the set out; a mode change mirrored): the session gets a
 * copy of the set with that value, so a selector shows what the transcript says. Nothing when there
 * is no such option.
 */
export function setConfigValue(step: Step, configId: string, value: JsonValue): void {
  const options = step.s.configOptions;
  const at = options?.findIndex((o) => o.id === configId) ?? -1;
  if (!options || at < 0) return;
  const next = options.slice();
  next[at] = { ...options[at]!, currentValue: value };
  step.s.configOptions = next;
  const before = step.s.configValues.get(configId);
  step.map('configValues').set(configId, { ...before, value });
  step.setSession({ configOptions: next });
}

/**
 * A mode changed (`current_mode_update`, or our `set_mode` acknowledged) while the agent also
 * offers a `mode` config option — which the selectors show instead of the modes (acp-reference
 * §11.2) — still at the old mode and offering the new one: the option follows, or the selector would
 * show the mode the agent left. An agent that sends the option's update too changes nothing more.
 */
function mirrorModeOption(step: Step, previous: string | undefined, modeId: string): void {
  const option = step.s.configOptions?.find((o) => o.category === 'mode' && o.type === 'select');
  if (!option || option.currentValue !== previous || !selectValues(option).includes(modeId)) return;
  setConfigValue(step, option.id, modeId);
}

/** The values a select option offers, its groups flattened. */
function selectValues(option: SessionConfigOption): string[] {
  const out: string[] = [];
  for (const o of option.options ?? []) {
    if (!isJsonObject(o)) continue;
    if (typeof o.value === 'string') out.push(o.value);
    else if (Array.isArray(o.options)) for (const g of o.options) if (isJsonObject(g) && typeof g.value === 'string') out.push(g.value);
  }
  return out;
}
