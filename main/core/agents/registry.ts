/**
 * ACP registry import (acp-reference §20): read a registry document from a file or a URL, validate
 * it, keep the agents that can run on this machine, and store them in settings.json with their
 * version. Importing again updates those entries. Binary distributions are recorded, not
 * downloaded: getting the binary is a user action the install text spells out.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_AGENT_ID } from './catalog/builtins';
import { currentRegistryPlatform, registryDefinition, selectDistribution } from './catalog/registry-entry';
import { validateManifest, validateRegistryEnvelope, type AgentManifest } from './registry-schema';
import { updateSettingsFile, type RegistryAgentRecord } from './settings';
import type { AgentDefinition, RegistryPlatform } from './types';
import { childPath, isRecord, Problems, type Problem } from './validate';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
export const REGISTRY_FETCH_TIMEOUT_MS = 15_000;
const MAX_REGISTRY_BYTES = 16 * 1024 * 1024;

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

export interface ParsedRegistry {
  registryVersion: string;
  /** Manifests that passed validation. */
  agents: AgentManifest[];
  /** What was wrong with the others (each names the manifest by its JSON path). */
  problems: Problem[];
}

/** Parse a registry document; a bad envelope throws, a bad manifest is reported and left out. */
export function parseRegistryDocument(text: string, source: string): ParsedRegistry {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new RegistryError(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  const problems = new Problems();
  const envelope = validateRegistryEnvelope(json, problems);
  if (!envelope) {
    throw new RegistryError(`${source} is not an ACP registry document: ${problems.list.map((p) => `${p.path || '(top level)'}: ${p.message}`).join('; ')}`);
  }
  const agents: AgentManifest[] = [];
  const seen = new Set<string>();
  envelope.agents.forEach((item, i) => {
    const path = childPath('agents', i);
    const manifest = validateManifest(item, path, problems);
    if (!manifest) return;
    if (seen.has(manifest.id)) {
      problems.add(childPath(path, 'id'), `"${manifest.id}" appears more than once; the first one is used`);
      return;
    }
    seen.add(manifest.id);
    agents.push(manifest);
  });
  return { registryVersion: envelope.version, agents, problems: problems.list };
}

export interface RegistryEntries {
  supported: AgentDefinition[];
  unsupported: { id: string; name: string; reason: string }[];
}

/** Catalog entries for this platform; agents with no usable distribution here are listed apart. */
export function registryCatalogEntries(
  manifests: readonly AgentManifest[],
  platform: RegistryPlatform | undefined = currentRegistryPlatform(),
  source = 'registry',
): RegistryEntries {
  const out: RegistryEntries = { supported: [], unsupported: [] };
  for (const manifest of manifests) {
    const selected = selectDistribution(manifest.distribution, platform);
    if (selected.kind === 'unsupported') {
      out.unsupported.push({ id: manifest.id, name: manifest.name, reason: selected.reason });
      continue;
    }
    out.supported.push(registryDefinition(toRecord(manifest, source, new Date(0).toISOString()), platform));
  }
  return out;
}

function toRecord(manifest: AgentManifest, source: string, importedAt: string): RegistryAgentRecord {
  return {
    id: manifest.id,
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    distribution: manifest.distribution,
    source,
    importedAt,
    ...(manifest.website ? { website: manifest.website } : {}),
    ...(manifest.repository ? { repository: manifest.repository } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
  };
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function describeFetchFailure(url: string, err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const offlineHint = 'you may be offline. To import without network, download the registry file on a connected machine and run `acp-workbench agents import-registry FILE`.';
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return `could not download the registry from ${url}: no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} — ${offlineHint}`;
  }
  const cause = e.cause?.code ?? e.cause?.message ?? e.message;
  return `could not download the registry from ${url} (${cause}) — ${offlineHint}`;
}

export interface ReadSourceOptions {
  cwd?: string;
  timeoutMs?: number;
}

/** The document's text from a local file or an http(s) URL. */
export async function readRegistrySource(source: string, options: ReadSourceOptions = {}): Promise<{ text: string; source: string }> {
  if (isUrl(source)) {
    const timeoutMs = options.timeoutMs ?? REGISTRY_FETCH_TIMEOUT_MS;
    let response: Response;
    let text: string;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      if (!response.ok) throw new RegistryError(`could not download the registry from ${source}: HTTP ${response.status} ${response.statusText}`.trim());
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > MAX_REGISTRY_BYTES) throw new RegistryError(`${source} is ${length} bytes; a registry document is expected to be under ${MAX_REGISTRY_BYTES} bytes`);
      text = await response.text();
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      throw new RegistryError(describeFetchFailure(source, err, timeoutMs));
    }
    return { text, source };
  }
  const file = source.startsWith('file:') ? fileURLToPath(source) : resolve(options.cwd ?? process.cwd(), source);
  try {
    return { text: await readFile(file, 'utf8'), source: file };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RegistryError(code === 'ENOENT' ? `no such file: ${file}` : `could not read ${file}: ${(err as Error).message}`);
  }
}

export interface ImportResult {
  source: string;
  registryVersion: string;
  platform: RegistryPlatform | undefined;
  added: string[];
  updated: { id: string; from: string; to: string }[];
  unchanged: string[];
  unsupported: { id: string; name: string; reason: string }[];
  /** Valid manifests not imported, and why. */
  skipped: { id: string; reason: string }[];
  /** Invalid manifests in the document. */
  problems: Problem[];
}

export interface ImportOptions extends ReadSourceOptions {
  platform?: RegistryPlatform | undefined;
  now?: () => Date;
}

/** Import (or re-import) a registry document into `<configDir>/settings.json`. */
export async function importRegistry(configDir: string, source: string, options: ImportOptions = {}): Promise<ImportResult> {
  const read = await readRegistrySource(source, options);
  const parsed = parseRegistryDocument(read.text, read.source);
  const platform = 'platform' in options ? options.platform : currentRegistryPlatform();
  const importedAt = (options.now?.() ?? new Date()).toISOString();
  const result: ImportResult = {
    source: read.source,
    registryVersion: parsed.registryVersion,
    platform,
    added: [],
    updated: [],
    unchanged: [],
    unsupported: [],
    skipped: [],
    problems: parsed.problems,
  };
  await updateSettingsFile(configDir, (raw, current) => {
    const customIds = new Set(current.customAgents.map((a) => a.id));
    const existing = new Map(current.registryAgents.map((r) => [r.id, r]));
    if (!Array.isArray(raw.registryAgents)) raw.registryAgents = [];
    const list = raw.registryAgents as unknown[];
    for (const manifest of parsed.agents) {
      if (manifest.id === DEMO_AGENT_ID || customIds.has(manifest.id)) {
        result.skipped.push({ id: manifest.id, reason: manifest.id === DEMO_AGENT_ID ? 'the id "demo" is the shipped demo agent' : `the id "${manifest.id}" is taken by a custom agent` });
        continue;
      }
      const selected = selectDistribution(manifest.distribution, platform);
      if (selected.kind === 'unsupported') {
        result.unsupported.push({ id: manifest.id, name: manifest.name, reason: selected.reason });
        continue;
      }
      const record = toRecord(manifest, read.source, importedAt);
      const before = existing.get(manifest.id);
      const index = list.findIndex((r) => isRecord(r) && r.id === manifest.id);
      if (!before) {
        result.added.push(manifest.id);
        if (index >= 0) list[index] = record;
        else list.push(record);
        continue;
      }
      const same =
        before.version === record.version &&
        JSON.stringify(before.distribution) === JSON.stringify(record.distribution) &&
        before.name === record.name &&
        before.description === record.description;
      if (same) {
        result.unchanged.push(manifest.id);
        continue;
      }
      result.updated.push({ id: manifest.id, from: before.version, to: record.version });
      // Keys the user added by hand to the stored entry stay.
      list[index] = { ...(list[index] as Record<string, unknown>), ...record };
    }
  });
  return result;
}
