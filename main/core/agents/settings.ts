/**
 * `<configDir>/settings.json`: loading, and changes made from the workbench (docs/settings.md).
 *
 * The file belongs to the user. A file that does not parse is never overwritten: the defaults are
 * used and the error is reported (file + line/position). Changes edit the parsed document in place
 * and write it back atomically, so keys this version does not know survive a round trip; they are
 * refused while the file has errors, because rewriting it could drop what the user is mid-way
 * through typing.
 */
import { join } from 'node:path';
import { reservedAgentIds } from './catalog/builtins';
import { formatJson, readTextIfExists, writeFileAtomic } from './json-file';
import { findJsonSyntaxError } from './json-syntax';
import {
  defaultSettings,
  SETTINGS_VERSION,
  validateSettings,
  type AgentOverrideSettings,
  type CustomAgentSettings,
  type WorkbenchSettings,
} from './settings-schema';
import { AGENT_ID_PATTERN } from './registry-schema';
import type { CwdRule } from './types';
import { isRecord, type Problem } from './validate';

export * from './settings-schema';

export const SETTINGS_FILE_NAME = 'settings.json';

export function settingsFilePath(configDir: string): string {
  return join(configDir, SETTINGS_FILE_NAME);
}

export interface SettingsProblem extends Problem {
  file: string;
}

export interface LoadedSettings {
  file: string;
  exists: boolean;
  /** The effective settings: the file's valid values over the defaults. */
  settings: WorkbenchSettings;
  problems: SettingsProblem[];
  /** The file could not be used at all (not JSON, not an object): defaults are in effect. */
  broken: boolean;
  /** The parsed document, kept to write changes back without losing unknown keys. */
  raw: Record<string, unknown>;
}

/** One line per problem: `<file>: <JSON path>: <what is wrong>`. */
export function formatSettingsProblem(p: SettingsProblem): string {
  return `${p.file}: ${p.path || '(top level)'}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`;
}

export function settingsErrors(loaded: LoadedSettings): SettingsProblem[] {
  return loaded.problems.filter((p) => p.severity === 'error');
}

/** Thrown when a change cannot be made; `problems` carries what is wrong in the file, if that is why. */
export class SettingsError extends Error {
  constructor(
    message: string,
    readonly problems: SettingsProblem[] = [],
  ) {
    super(problems.length ? `${message}\n${problems.map((p) => `  ${formatSettingsProblem(p)}`).join('\n')}` : message);
    this.name = 'SettingsError';
  }
}

function describeJsonError(text: string, err: Error): string {
  const where = findJsonSyntaxError(text);
  return where ? `line ${where.line}, column ${where.column}: ${where.message}` : err.message;
}

export function parseSettingsText(text: string, file: string): Omit<LoadedSettings, 'exists'> {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '') return { file, settings: defaultSettings(), problems: [], broken: false, raw: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(clean);
  } catch (err) {
    const message = `not valid JSON at ${describeJsonError(clean, err as Error)}. The file was left untouched; defaults are in use until it is fixed.`;
    return { file, settings: defaultSettings(), problems: [{ file, path: '', message, severity: 'error' }], broken: true, raw: {} };
  }
  if (!isRecord(parsed)) {
    const message = 'expected a JSON object ({ ... }) at the top level. The file was left untouched; defaults are in use until it is fixed.';
    return { file, settings: defaultSettings(), problems: [{ file, path: '', message, severity: 'error' }], broken: true, raw: {} };
  }
  const { settings, problems } = validateSettings(parsed);
  return { file, settings, problems: problems.list.map((p) => ({ ...p, file })), broken: false, raw: parsed };
}

export async function loadSettings(configDir: string): Promise<LoadedSettings> {
  const file = settingsFilePath(configDir);
  let text: string | undefined;
  try {
    text = await readTextIfExists(file);
  } catch (err) {
    const message = `could not be read: ${(err as Error).message}. Defaults are in use.`;
    return { file, exists: true, settings: defaultSettings(), problems: [{ file, path: '', message, severity: 'error' }], broken: true, raw: {} };
  }
  if (text === undefined) return { file, exists: false, settings: defaultSettings(), problems: [], broken: false, raw: {} };
  return { exists: true, ...parseSettingsText(text, file) };
}

/**
 * Change settings.json: `mutate` edits the parsed document (unknown keys included) in place.
 * Refused while the file has errors; refused when the change itself would make it invalid.
 */
export async function updateSettingsFile<T>(
  configDir: string,
  mutate: (raw: Record<string, unknown>, current: WorkbenchSettings) => T,
): Promise<{ result: T; loaded: LoadedSettings }> {
  const before = await loadSettings(configDir);
  const errors = settingsErrors(before);
  if (errors.length) throw new SettingsError(`${before.file} has errors; fix them (or move the file away) before changing settings from the workbench:`, errors);
  const raw = structuredClone(before.raw);
  if (raw.version === undefined) raw.version = SETTINGS_VERSION;
  const result = mutate(raw, before.settings);
  const after = parseSettingsText(formatJson(raw), before.file);
  const newErrors = settingsErrors({ ...after, exists: true });
  if (newErrors.length) throw new SettingsError('this change would make the settings invalid:', newErrors);
  await writeFileAtomic(before.file, formatJson(raw));
  return { result, loaded: { ...after, exists: true } };
}

/** "My Agent 2!" → "my-agent-2"; always a valid agent id. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!slug) return 'agent';
  return /^[a-z]/.test(slug) ? slug : `agent-${slug}`;
}

function takenIds(settings: WorkbenchSettings): Set<string> {
  const ids = reservedAgentIds();
  for (const a of settings.customAgents) ids.add(a.id);
  for (const a of settings.registryAgents) ids.add(a.id);
  return ids;
}

export function uniqueAgentId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function rawArray(raw: Record<string, unknown>, key: string): unknown[] {
  if (!Array.isArray(raw[key])) raw[key] = [];
  return raw[key] as unknown[];
}

function rawObject(raw: Record<string, unknown>, key: string): Record<string, unknown> {
  if (!isRecord(raw[key])) raw[key] = {};
  return raw[key] as Record<string, unknown>;
}

function findRawCustom(raw: Record<string, unknown>, id: string): Record<string, unknown> {
  const entry = rawArray(raw, 'customAgents').find((a) => isRecord(a) && a.id === id);
  if (!isRecord(entry)) throw new SettingsError(`no custom agent has the id "${id}"`);
  return entry;
}

export interface CustomAgentInput {
  name: string;
  /** Defaults to a unique slug of the name. */
  id?: string;
  description?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: CwdRule;
}

export async function addCustomAgent(configDir: string, input: CustomAgentInput): Promise<CustomAgentSettings> {
  const { result } = await updateSettingsFile(configDir, (raw, current) => {
    const taken = takenIds(current);
    if (input.id !== undefined) {
      if (!AGENT_ID_PATTERN.test(input.id)) throw new SettingsError(`"${input.id}" is not a valid agent id (lowercase letters, digits and dashes, starting with a letter)`);
      if (taken.has(input.id)) throw new SettingsError(`the id "${input.id}" is already used by another agent`);
    }
    const agent: CustomAgentSettings = {
      id: input.id ?? uniqueAgentId(slugFromName(input.name), taken),
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      command: input.command,
      args: input.args ?? [],
      env: input.env ?? {},
      cwd: input.cwd ?? 'session',
    };
    rawArray(raw, 'customAgents').push({ ...agent });
    return agent;
  });
  return result;
}

export type CustomAgentPatch = Partial<Omit<CustomAgentSettings, 'id'>>;

/** Edit fields of a custom agent; its id never changes (history and overrides refer to it). */
export async function editCustomAgent(configDir: string, id: string, patch: CustomAgentPatch): Promise<CustomAgentSettings> {
  const { loaded } = await updateSettingsFile(configDir, (raw) => {
    const entry = findRawCustom(raw, id);
    for (const [key, value] of Object.entries(patch)) {
      if (key === 'id') continue;
      if (value === undefined) delete entry[key];
      else entry[key] = structuredClone(value);
    }
  });
  return loaded.settings.customAgents.find((a) => a.id === id)!;
}

/** Copy a custom agent under a new name (default "<name> (copy)") and a fresh id. */
export async function duplicateCustomAgent(configDir: string, id: string, name?: string): Promise<CustomAgentSettings> {
  const { result } = await updateSettingsFile(configDir, (raw, current) => {
    const source = findRawCustom(raw, id);
    const copyName = name ?? `${String(source.name)} (copy)`;
    const newId = uniqueAgentId(slugFromName(copyName), takenIds(current));
    rawArray(raw, 'customAgents').push({ ...structuredClone(source), id: newId, name: copyName });
    return newId;
  });
  const loaded = await loadSettings(configDir);
  return loaded.settings.customAgents.find((a) => a.id === result)!;
}

/** Remove a custom or registry-imported agent with its override; false when no such agent. */
export async function removeAgentFromSettings(configDir: string, id: string): Promise<boolean> {
  const { result } = await updateSettingsFile(configDir, (raw) => {
    let removed = false;
    for (const key of ['customAgents', 'registryAgents']) {
      if (!Array.isArray(raw[key])) continue;
      const list = raw[key] as unknown[];
      const kept = list.filter((a) => !(isRecord(a) && a.id === id));
      if (kept.length !== list.length) {
        raw[key] = kept;
        removed = true;
      }
    }
    if (!removed) return false;
    if (isRecord(raw.agentOverrides)) delete raw.agentOverrides[id];
    if (raw.defaultAgent === id) delete raw.defaultAgent;
    return true;
  });
  return result;
}

export async function removeCustomAgent(configDir: string, id: string): Promise<boolean> {
  const loaded = await loadSettings(configDir);
  if (!loaded.settings.customAgents.some((a) => a.id === id)) return false;
  return removeAgentFromSettings(configDir, id);
}

/** Set (or with undefined, clear) the override of any agent: built-in, registry, custom or demo. */
export async function setAgentOverride(configDir: string, id: string, override: AgentOverrideSettings | undefined): Promise<void> {
  await updateSettingsFile(configDir, (raw) => {
    const overrides = rawObject(raw, 'agentOverrides');
    if (override === undefined) delete overrides[id];
    else overrides[id] = structuredClone(override);
  });
}

/** Top-level values the UI edits wholesale; undefined removes the key (back to the default). */
export type SettingsValuesPatch = Partial<Pick<WorkbenchSettings, 'defaultAgent' | 'permissionPolicy' | 'theme' | 'clientCapabilities' | 'mcpServers'>>;

export async function setSettingsValues(configDir: string, patch: SettingsValuesPatch): Promise<LoadedSettings> {
  const { loaded } = await updateSettingsFile(configDir, (raw) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete raw[key];
      else raw[key] = structuredClone(value);
    }
  });
  return loaded;
}
