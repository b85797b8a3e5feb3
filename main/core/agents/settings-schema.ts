/**
 * The settings document (docs/settings.md): its types, defaults and validation. Validation is
 * forgiving per value — a bad value falls back to its default and is reported with its JSON
 * path — so one typo never disables the rest of the user's settings.
 */
import { isAbsolute } from 'node:path';
import { reservedAgentIds } from './catalog/builtins';
import { AGENT_ID_PATTERN, validateDistribution, type RegistryDistribution } from './registry-schema';
import type { ClientCapabilityOverrides, ClientCapabilitySettings, CwdRule } from './types';
import {
  childPath,
  describeValue,
  isRecord,
  Problems,
  readBoolean,
  readEnum,
  readObject,
  readString,
  readStringArray,
  readStringMap,
  warnUnknownKeys,
} from './validate';

export const SETTINGS_VERSION = 1;

export const PERMISSION_POLICIES = ['ask', 'all', 'reads', 'none'] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface CustomAgentSettings {
  id: string;
  name: string;
  description?: string;
  command: string;
  args: string[];
  /** Non-secret values only; secrets go to the secret store. */
  env: Record<string, string>;
  cwd: CwdRule;
}

export interface AgentOverrideSettings {
  /** Appended to the agent's own args. */
  args?: string[];
  env?: Record<string, string>;
  disabled?: boolean;
  clientCapabilities?: ClientCapabilityOverrides;
}

/** An agent imported from an ACP registry document, kept with the version it was imported at. */
export interface RegistryAgentRecord {
  id: string;
  name: string;
  version: string;
  description: string;
  distribution: RegistryDistribution;
  /** The file or URL it was imported from. */
  source: string;
  /** ISO 8601 time of the import. */
  importedAt: string;
  website?: string;
  repository?: string;
  license?: string;
}

export interface NameValue {
  name: string;
  value: string;
}

/** MCP servers in ACP's wire shapes (env/headers as `[{name, value}]`), plus `enabled`. */
export type McpServerSettings =
  | { type?: 'stdio'; name: string; command: string; args: string[]; env: NameValue[]; enabled: boolean }
  | { type: 'http' | 'sse'; name: string; url: string; headers: NameValue[]; enabled: boolean };

export interface WorkbenchSettings {
  version: number;
  defaultAgent?: string;
  /** The folder preselected for new sessions: absolute, or starting with `~/`. */
  defaultFolder?: string;
  permissionPolicy: PermissionPolicy;
  theme: Theme;
  clientCapabilities: ClientCapabilitySettings;
  customAgents: CustomAgentSettings[];
  agentOverrides: Record<string, AgentOverrideSettings>;
  registryAgents: RegistryAgentRecord[];
  mcpServers: McpServerSettings[];
}

export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilitySettings = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  // The app runs terminal logins in a PTY; it still advertises this only where the PTY loads, the CLI never.
  auth: { terminal: true },
};

export function defaultSettings(): WorkbenchSettings {
  return {
    version: SETTINGS_VERSION,
    permissionPolicy: 'ask',
    theme: 'system',
    clientCapabilities: structuredClone(DEFAULT_CLIENT_CAPABILITIES),
    customAgents: [],
    agentOverrides: {},
    registryAgents: [],
    mcpServers: [],
  };
}

const TOP_LEVEL_KEYS = [
  'version',
  'defaultAgent',
  'defaultFolder',
  'permissionPolicy',
  'theme',
  'clientCapabilities',
  'customAgents',
  'agentOverrides',
  'registryAgents',
  'mcpServers',
] as const;

const ID_RULE = { pattern: AGENT_ID_PATTERN, patternText: 'a valid agent id (lowercase letters, digits and dashes, starting with a letter)' };

function readCapabilityOverrides(value: unknown, path: string, problems: Problems): ClientCapabilityOverrides | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  warnUnknownKeys(obj, ['fs', 'terminal', 'auth'], path, problems);
  const out: ClientCapabilityOverrides = {};
  if (obj.fs !== undefined) {
    const fsObj = readObject(obj.fs, childPath(path, 'fs'), problems);
    if (fsObj) {
      warnUnknownKeys(fsObj, ['readTextFile', 'writeTextFile'], childPath(path, 'fs'), problems);
      out.fs = {};
      for (const key of ['readTextFile', 'writeTextFile'] as const) {
        if (fsObj[key] !== undefined) {
          const b = readBoolean(fsObj[key], childPath(childPath(path, 'fs'), key), problems);
          if (b !== undefined) out.fs[key] = b;
        }
      }
    }
  }
  if (obj.terminal !== undefined) {
    const b = readBoolean(obj.terminal, childPath(path, 'terminal'), problems);
    if (b !== undefined) out.terminal = b;
  }
  if (obj.auth !== undefined) {
    const authObj = readObject(obj.auth, childPath(path, 'auth'), problems);
    if (authObj) {
      warnUnknownKeys(authObj, ['terminal'], childPath(path, 'auth'), problems);
      if (authObj.terminal !== undefined) {
        const b = readBoolean(authObj.terminal, childPath(childPath(path, 'auth'), 'terminal'), problems);
        if (b !== undefined) out.auth = { terminal: b };
      }
    }
  }
  return out;
}

export function applyCapabilityOverrides(base: ClientCapabilitySettings, over: ClientCapabilityOverrides | undefined): ClientCapabilitySettings {
  return {
    fs: {
      readTextFile: over?.fs?.readTextFile ?? base.fs.readTextFile,
      writeTextFile: over?.fs?.writeTextFile ?? base.fs.writeTextFile,
    },
    terminal: over?.terminal ?? base.terminal,
    auth: { terminal: over?.auth?.terminal ?? base.auth.terminal },
  };
}

/** An absolute folder path or one starting with `~/` (expanded at use). */
export function isFolderPath(folder: string): boolean {
  return isAbsolute(folder) || folder === '~' || folder.startsWith('~/');
}

function readCwdRule(value: unknown, path: string, problems: Problems): CwdRule | undefined {
  if (value === 'session') return 'session';
  if (isRecord(value) && typeof value.folder === 'string') {
    const folder = value.folder;
    if (isFolderPath(folder)) return { folder };
    problems.add(childPath(path, 'folder'), `must be an absolute folder path (or start with ~/), got ${JSON.stringify(folder)}`);
    return undefined;
  }
  problems.add(path, `expected "session" or {"folder": "/absolute/path"}, got ${describeValue(value)}`);
  return undefined;
}

function readCustomAgent(value: unknown, path: string, problems: Problems, taken: Set<string>): CustomAgentSettings | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  warnUnknownKeys(obj, ['id', 'name', 'description', 'command', 'args', 'env', 'cwd'], path, problems);
  const id = readString(obj.id, childPath(path, 'id'), problems, ID_RULE);
  if (id !== undefined && taken.has(id)) problems.add(childPath(path, 'id'), `${JSON.stringify(id)} is already used by another agent; ids must be unique`);
  const name = readString(obj.name, childPath(path, 'name'), problems, { nonEmpty: true });
  const command = readString(obj.command, childPath(path, 'command'), problems, { nonEmpty: true });
  const args = obj.args === undefined ? [] : readStringArray(obj.args, childPath(path, 'args'), problems);
  const env = obj.env === undefined ? {} : readStringMap(obj.env, childPath(path, 'env'), problems);
  const cwd = obj.cwd === undefined ? 'session' : readCwdRule(obj.cwd, childPath(path, 'cwd'), problems);
  let description: string | undefined;
  if (obj.description !== undefined) description = readString(obj.description, childPath(path, 'description'), problems);
  if (problems.errorCount !== before || !id || !name || !command || !args || !env || !cwd) return undefined;
  taken.add(id);
  return { id, name, ...(description !== undefined ? { description } : {}), command, args, env, cwd };
}

function readOverride(value: unknown, path: string, problems: Problems): AgentOverrideSettings | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  warnUnknownKeys(obj, ['args', 'env', 'disabled', 'clientCapabilities'], path, problems);
  const out: AgentOverrideSettings = {};
  if (obj.args !== undefined) {
    const args = readStringArray(obj.args, childPath(path, 'args'), problems);
    if (args) out.args = args;
  }
  if (obj.env !== undefined) {
    const env = readStringMap(obj.env, childPath(path, 'env'), problems);
    if (env) out.env = env;
  }
  if (obj.disabled !== undefined) {
    const disabled = readBoolean(obj.disabled, childPath(path, 'disabled'), problems);
    if (disabled !== undefined) out.disabled = disabled;
  }
  if (obj.clientCapabilities !== undefined) {
    const caps = readCapabilityOverrides(obj.clientCapabilities, childPath(path, 'clientCapabilities'), problems);
    if (caps) out.clientCapabilities = caps;
  }
  return out;
}

function readRegistryRecord(value: unknown, path: string, problems: Problems, taken: Set<string>): RegistryAgentRecord | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const id = readString(obj.id, childPath(path, 'id'), problems, ID_RULE);
  if (id !== undefined && taken.has(id)) problems.add(childPath(path, 'id'), `${JSON.stringify(id)} appears twice in registryAgents`);
  const name = readString(obj.name, childPath(path, 'name'), problems, { nonEmpty: true });
  const version = readString(obj.version, childPath(path, 'version'), problems, { nonEmpty: true });
  const description = obj.description === undefined ? '' : readString(obj.description, childPath(path, 'description'), problems);
  const source = readString(obj.source, childPath(path, 'source'), problems);
  const importedAt = readString(obj.importedAt, childPath(path, 'importedAt'), problems);
  const distribution = validateDistribution(obj.distribution, childPath(path, 'distribution'), problems);
  if (problems.errorCount !== before || !id || !name || !version || description === undefined || source === undefined || importedAt === undefined || !distribution) {
    return undefined;
  }
  taken.add(id);
  const record: RegistryAgentRecord = { id, name, version, description, distribution, source, importedAt };
  for (const key of ['website', 'repository', 'license'] as const) {
    if (typeof obj[key] === 'string') record[key] = obj[key];
  }
  return record;
}

function readNameValues(value: unknown, path: string, problems: Problems): NameValue[] | undefined {
  if (!Array.isArray(value)) {
    problems.add(path, `expected an array of {"name": ..., "value": ...} objects, got ${describeValue(value)}`);
    return undefined;
  }
  const before = problems.errorCount;
  const out: NameValue[] = [];
  value.forEach((item, i) => {
    const obj = readObject(item, childPath(path, i), problems);
    if (!obj) return;
    const name = readString(obj.name, childPath(childPath(path, i), 'name'), problems, { nonEmpty: true });
    const v = readString(obj.value, childPath(childPath(path, i), 'value'), problems);
    if (name !== undefined && v !== undefined) out.push({ name, value: v });
  });
  return problems.errorCount === before ? out : undefined;
}

function readMcpServer(value: unknown, path: string, problems: Problems, names: Set<string>): McpServerSettings | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const name = readString(obj.name, childPath(path, 'name'), problems, { nonEmpty: true });
  if (name !== undefined && names.has(name)) problems.add(childPath(path, 'name'), `${JSON.stringify(name)} is used by another MCP server; names must be unique`);
  const type = obj.type === undefined ? 'stdio' : readEnum(obj.type, ['stdio', 'http', 'sse'] as const, childPath(path, 'type'), problems);
  const enabled = obj.enabled === undefined ? true : readBoolean(obj.enabled, childPath(path, 'enabled'), problems);
  if (type === 'stdio') {
    warnUnknownKeys(obj, ['type', 'name', 'command', 'args', 'env', 'enabled', '_meta'], path, problems);
    const command = readString(obj.command, childPath(path, 'command'), problems, { nonEmpty: true });
    const args = obj.args === undefined ? [] : readStringArray(obj.args, childPath(path, 'args'), problems);
    const env = obj.env === undefined ? [] : readNameValues(obj.env, childPath(path, 'env'), problems);
    if (problems.errorCount !== before || !name || !command || !args || !env || enabled === undefined) return undefined;
    names.add(name);
    return { name, command, args, env, enabled };
  }
  if (type === 'http' || type === 'sse') {
    warnUnknownKeys(obj, ['type', 'name', 'url', 'headers', 'enabled', '_meta'], path, problems);
    const url = readString(obj.url, childPath(path, 'url'), problems, { pattern: /^https?:\/\//, patternText: 'an http(s) URL' });
    const headers = obj.headers === undefined ? [] : readNameValues(obj.headers, childPath(path, 'headers'), problems);
    if (problems.errorCount !== before || !name || !url || !headers || enabled === undefined) return undefined;
    names.add(name);
    return { type, name, url, headers, enabled };
  }
  return undefined;
}

function readArray<T>(value: unknown, path: string, problems: Problems, readItem: (item: unknown, itemPath: string) => T | undefined): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.add(path, `expected an array, got ${describeValue(value)}`);
    return [];
  }
  const out: T[] = [];
  value.forEach((item, i) => {
    const parsed = readItem(item, childPath(path, i));
    if (parsed !== undefined) out.push(parsed);
  });
  return out;
}

/** Validate a parsed settings document; invalid values fall back to defaults and are reported. */
export function validateSettings(raw: Record<string, unknown>): { settings: WorkbenchSettings; problems: Problems } {
  const problems = new Problems();
  const settings = defaultSettings();
  warnUnknownKeys(raw, TOP_LEVEL_KEYS, '', problems);

  if (raw.version !== undefined && raw.version !== SETTINGS_VERSION) {
    problems.add('version', `this workbench reads settings version ${SETTINGS_VERSION}, got ${describeValue(raw.version)}`);
  }
  if (raw.permissionPolicy !== undefined) {
    settings.permissionPolicy = readEnum(raw.permissionPolicy, PERMISSION_POLICIES, 'permissionPolicy', problems) ?? settings.permissionPolicy;
  }
  if (raw.defaultFolder !== undefined) {
    const folder = readString(raw.defaultFolder, 'defaultFolder', problems, { nonEmpty: true });
    if (folder !== undefined) {
      if (isFolderPath(folder)) settings.defaultFolder = folder;
      else problems.add('defaultFolder', `must be an absolute folder path (or start with ~/), got ${JSON.stringify(folder)}`);
    }
  }
  if (raw.theme !== undefined) settings.theme = readEnum(raw.theme, THEMES, 'theme', problems) ?? settings.theme;
  if (raw.clientCapabilities !== undefined) {
    const caps = readCapabilityOverrides(raw.clientCapabilities, 'clientCapabilities', problems);
    settings.clientCapabilities = applyCapabilityOverrides(settings.clientCapabilities, caps);
  }

  // Custom ids must not shadow built-ins, the demo or an imported agent: `--agent ID` must be unambiguous.
  const taken = reservedAgentIds();
  const registryIds = new Set<string>();
  settings.registryAgents = readArray(raw.registryAgents, 'registryAgents', problems, (item, p) => readRegistryRecord(item, p, problems, registryIds));
  for (const id of registryIds) taken.add(id);
  settings.customAgents = readArray(raw.customAgents, 'customAgents', problems, (item, p) => readCustomAgent(item, p, problems, taken));

  const mcpNames = new Set<string>();
  settings.mcpServers = readArray(raw.mcpServers, 'mcpServers', problems, (item, p) => readMcpServer(item, p, problems, mcpNames));

  if (raw.agentOverrides !== undefined) {
    const overrides = readObject(raw.agentOverrides, 'agentOverrides', problems);
    for (const [id, value] of Object.entries(overrides ?? {})) {
      const path = childPath('agentOverrides', id);
      const parsed = readOverride(value, path, problems);
      if (!parsed) continue;
      if (!taken.has(id)) problems.warn(path, `no agent has the id ${JSON.stringify(id)}; this override does nothing`);
      settings.agentOverrides[id] = parsed;
    }
  }

  if (raw.defaultAgent !== undefined) {
    const id = readString(raw.defaultAgent, 'defaultAgent', problems, ID_RULE);
    if (id !== undefined) {
      if (!taken.has(id)) problems.warn('defaultAgent', `no agent has the id ${JSON.stringify(id)}`);
      settings.defaultAgent = id;
    }
  }
  return { settings, problems };
}
