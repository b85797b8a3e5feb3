/**
 * The ACP registry's document shapes (acp-reference §20.1) and their validation. Used when
 * importing a registry and again when reading imported entries back from settings.json.
 */
import { REGISTRY_PLATFORMS, type RegistryPlatform } from './types';
import {
  childPath,
  describeValue,
  isRecord,
  Problems,
  readObject,
  readString,
  readStringArray,
  readStringMap,
} from './validate';

export interface PackageDistribution {
  /** `name@version` (the version is what pins the launch). */
  package: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface BinaryTarget {
  archive: string;
  cmd: string;
  args?: string[];
  env?: Record<string, string>;
  sha256?: string;
}

export interface RegistryDistribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<RegistryPlatform, BinaryTarget>>;
}

export interface AgentManifest {
  id: string;
  name: string;
  version: string;
  description: string;
  distribution: RegistryDistribution;
  repository?: string;
  website?: string;
  license?: string;
}

export interface RegistryDocument {
  version: string;
  agents: unknown[];
}

export const AGENT_ID_PATTERN = /^[a-z][a-z0-9-]*$/;
const VERSION_PATTERN = /^\d+\.\d+\.\d+/;

function readUrl(value: unknown, path: string, problems: Problems): string | undefined {
  const s = readString(value, path, problems, { nonEmpty: true });
  if (s === undefined) return undefined;
  try {
    const url = new URL(s);
    if (url.protocol === 'https:' || url.protocol === 'http:') return s;
  } catch {
    // fall through to the problem below
  }
  problems.add(path, `${JSON.stringify(s)} is not an http(s) URL`);
  return undefined;
}

function readPackage(value: unknown, path: string, problems: Problems): PackageDistribution | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const pkg = readString(obj.package, childPath(path, 'package'), problems, { nonEmpty: true });
  const out: PackageDistribution = { package: pkg ?? '' };
  if (obj.args !== undefined) out.args = readStringArray(obj.args, childPath(path, 'args'), problems);
  if (obj.env !== undefined) out.env = readStringMap(obj.env, childPath(path, 'env'), problems);
  return problems.errorCount === before ? out : undefined;
}

function readBinaryTarget(value: unknown, path: string, problems: Problems): BinaryTarget | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const out: BinaryTarget = {
    archive: readUrl(obj.archive, childPath(path, 'archive'), problems) ?? '',
    cmd: readString(obj.cmd, childPath(path, 'cmd'), problems, { nonEmpty: true }) ?? '',
  };
  if (obj.args !== undefined) out.args = readStringArray(obj.args, childPath(path, 'args'), problems);
  if (obj.env !== undefined) out.env = readStringMap(obj.env, childPath(path, 'env'), problems);
  if (obj.sha256 !== undefined) {
    const sha = readString(obj.sha256, childPath(path, 'sha256'), problems, { pattern: /^[0-9a-fA-F]{64}$/, patternText: 'a SHA-256 in hex (64 characters)' });
    if (sha !== undefined) out.sha256 = sha.toLowerCase();
  }
  return problems.errorCount === before ? out : undefined;
}

export function validateDistribution(value: unknown, path: string, problems: Problems): RegistryDistribution | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const out: RegistryDistribution = {};
  for (const key of Object.keys(obj)) {
    if (key !== 'npx' && key !== 'uvx' && key !== 'binary') problems.warn(childPath(path, key), 'unknown distribution kind, ignored (known: npx, uvx, binary)');
  }
  if (obj.npx !== undefined) out.npx = readPackage(obj.npx, childPath(path, 'npx'), problems);
  if (obj.uvx !== undefined) out.uvx = readPackage(obj.uvx, childPath(path, 'uvx'), problems);
  if (obj.binary !== undefined) {
    const bin = readObject(obj.binary, childPath(path, 'binary'), problems);
    if (bin) {
      const targets: Partial<Record<RegistryPlatform, BinaryTarget>> = {};
      for (const [platform, target] of Object.entries(bin)) {
        const targetPath = childPath(childPath(path, 'binary'), platform);
        if (!(REGISTRY_PLATFORMS as readonly string[]).includes(platform)) {
          problems.add(targetPath, `unknown platform (known: ${REGISTRY_PLATFORMS.join(', ')})`);
          continue;
        }
        const parsed = readBinaryTarget(target, targetPath, problems);
        if (parsed) targets[platform as RegistryPlatform] = parsed;
      }
      if (Object.keys(targets).length === 0 && problems.errorCount === before) problems.add(childPath(path, 'binary'), 'lists no platform');
      out.binary = targets;
    }
  }
  if (!out.npx && !out.uvx && !out.binary && problems.errorCount === before) {
    problems.add(path, 'needs at least one of npx, uvx or binary');
  }
  return problems.errorCount === before ? out : undefined;
}

export function validateManifest(value: unknown, path: string, problems: Problems): AgentManifest | undefined {
  const obj = readObject(value, path, problems);
  if (!obj) return undefined;
  const before = problems.errorCount;
  const id = readString(obj.id, childPath(path, 'id'), problems, { pattern: AGENT_ID_PATTERN, patternText: 'a valid agent id (lowercase letters, digits and dashes, starting with a letter)' });
  const name = readString(obj.name, childPath(path, 'name'), problems, { nonEmpty: true });
  const version = readString(obj.version, childPath(path, 'version'), problems, { pattern: VERSION_PATTERN, patternText: 'a version like 1.2.3' });
  const description = readString(obj.description, childPath(path, 'description'), problems);
  const distribution = obj.distribution === undefined
    ? (problems.add(childPath(path, 'distribution'), 'is required'), undefined)
    : validateDistribution(obj.distribution, childPath(path, 'distribution'), problems);
  if (problems.errorCount !== before || !id || !name || !version || description === undefined || !distribution) return undefined;
  const manifest: AgentManifest = { id, name, version, description, distribution };
  // Optional links are display-only: a bad one is dropped rather than failing the agent.
  for (const key of ['repository', 'website', 'license'] as const) {
    if (typeof obj[key] === 'string') manifest[key] = obj[key];
  }
  return manifest;
}

/** Check the envelope `{version, agents: [...]}`; manifests are checked one by one by the caller. */
export function validateRegistryEnvelope(value: unknown, problems: Problems): RegistryDocument | undefined {
  if (!isRecord(value)) {
    problems.add('', `expected a registry document {"version": ..., "agents": [...]}, got ${describeValue(value)}`);
    return undefined;
  }
  const version = readString(value.version, 'version', problems);
  if (!Array.isArray(value.agents)) {
    problems.add('agents', `expected an array of agent manifests, got ${describeValue(value.agents)}`);
    return undefined;
  }
  return version === undefined ? undefined : { version, agents: value.agents };
}
