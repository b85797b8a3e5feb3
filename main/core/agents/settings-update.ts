/**
 * A partial change of settings.json from the settings screen (`settings/update`): checked field by
 * field before anything is written, so each error can be shown next to its field, then merged
 * into the parsed document — keys the screen does not edit, and keys this version does not know,
 * stay as the user wrote them.
 */
import { statSync } from 'node:fs';
import type { SettingsFieldError, SettingsUpdateParams } from '../../../common/api/settings-types';
import { buildCatalog, findAgent } from './catalog/catalog';
import { expandHome } from './launch';
import { isFolderPath, PERMISSION_POLICIES, THEMES, validateSettings, type WorkbenchSettings } from './settings-schema';
import { describeValue, isRecord } from './validate';

export const UPDATABLE_KEYS = ['defaultAgent', 'defaultFolder', 'permissionPolicy', 'theme', 'clientCapabilities', 'mcpServers'] as const;

const CAPABILITY_KEYS: Record<string, readonly string[]> = { fs: ['readTextFile', 'writeTextFile'], terminal: [], auth: ['terminal'] };

function checkCapabilities(value: unknown, errors: SettingsFieldError[]): void {
  const field = 'clientCapabilities';
  if (!isRecord(value)) return void errors.push({ field, message: `expected an object of switches, got ${describeValue(value)}` });
  for (const [key, inner] of Object.entries(value)) {
    const children = CAPABILITY_KEYS[key];
    if (!children) {
      errors.push({ field: `${field}.${key}`, message: `not a client capability; known: fs.readTextFile, fs.writeTextFile, terminal, auth.terminal` });
    } else if (children.length === 0) {
      if (typeof inner !== 'boolean') errors.push({ field: `${field}.${key}`, message: `expected true or false, got ${describeValue(inner)}` });
    } else if (!isRecord(inner)) {
      errors.push({ field: `${field}.${key}`, message: `expected an object, got ${describeValue(inner)}` });
    } else {
      for (const [child, flag] of Object.entries(inner)) {
        if (!children.includes(child)) errors.push({ field: `${field}.${key}.${child}`, message: `not a client capability; known under ${key}: ${children.join(', ')}` });
        else if (typeof flag !== 'boolean') errors.push({ field: `${field}.${key}.${child}`, message: `expected true or false, got ${describeValue(flag)}` });
      }
    }
  }
}

function checkFolder(value: unknown, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return `expected a folder path, got ${describeValue(value)}`;
  if (!isFolderPath(value.trim())) return `must be an absolute folder path (or start with ~/), got ${JSON.stringify(value)}`;
  const path = expandHome(value.trim(), env);
  try {
    if (!statSync(path).isDirectory()) return `${path} is not a folder`;
  } catch {
    return `there is no folder at ${path}; create it or pick another`;
  }
  return undefined;
}

/**
 * Every reason the change cannot be made, by field; empty when it can. `current` is the effective
 * settings (for the agent catalog); MCP servers are checked by the same validation as the file.
 */
export function checkSettingsUpdate(params: unknown, current: WorkbenchSettings, env: NodeJS.ProcessEnv = process.env): SettingsFieldError[] {
  if (!isRecord(params)) return [{ field: '', message: `expected an object of settings to change, got ${describeValue(params)}` }];
  const errors: SettingsFieldError[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!(UPDATABLE_KEYS as readonly string[]).includes(key)) {
      errors.push({ field: key, message: `not a setting this screen changes (it changes ${UPDATABLE_KEYS.join(', ')})` });
      continue;
    }
    if (value === null || value === undefined) continue; // back to the default
    switch (key) {
      case 'defaultAgent': {
        const agent = typeof value === 'string' ? findAgent(buildCatalog(current), value) : undefined;
        if (!agent) errors.push({ field: key, message: `no agent has the id ${typeof value === 'string' ? JSON.stringify(value) : describeValue(value)}; pick one from the catalog` });
        break;
      }
      case 'defaultFolder': {
        const problem = checkFolder(value, env);
        if (problem) errors.push({ field: key, message: problem });
        break;
      }
      case 'permissionPolicy':
        if (!(PERMISSION_POLICIES as readonly unknown[]).includes(value)) errors.push({ field: key, message: `expected one of ${PERMISSION_POLICIES.join(', ')}, got ${describeValue(value)}` });
        break;
      case 'theme':
        if (!(THEMES as readonly unknown[]).includes(value)) errors.push({ field: key, message: `expected one of ${THEMES.join(', ')}, got ${describeValue(value)}` });
        break;
      case 'clientCapabilities':
        checkCapabilities(value, errors);
        break;
      case 'mcpServers': {
        const { problems } = validateSettings({ mcpServers: value });
        for (const p of problems.list) if (p.severity === 'error') errors.push({ field: p.path, message: p.message });
        break;
      }
    }
  }
  return errors;
}

/** Merge a checked change into the parsed document in place (null removes a key). */
export function applySettingsUpdate(raw: Record<string, unknown>, params: SettingsUpdateParams, current: WorkbenchSettings): void {
  for (const key of UPDATABLE_KEYS) {
    if (!(key in params)) continue;
    const value = params[key];
    if (value === null || value === undefined) {
      delete raw[key];
      continue;
    }
    if (key === 'clientCapabilities') {
      // Only the switches named change; the others keep what the file says (or their default).
      const caps = isRecord(raw.clientCapabilities) ? raw.clientCapabilities : {};
      const change = value as NonNullable<SettingsUpdateParams['clientCapabilities']>;
      for (const group of ['fs', 'auth'] as const) {
        if (!change[group]) continue;
        caps[group] = { ...(isRecord(caps[group]) ? caps[group] : {}), ...change[group] };
      }
      if (change.terminal !== undefined) caps.terminal = change.terminal;
      raw.clientCapabilities = caps;
    } else if (key === 'defaultAgent') {
      // Aliases are stored as the agent's id: the id is what the catalog and the UI list.
      raw.defaultAgent = findAgent(buildCatalog(current), value as string)!.id;
    } else if (key === 'defaultFolder') {
      raw.defaultFolder = (value as string).trim();
    } else {
      raw[key] = structuredClone(value);
    }
  }
}
