/**
 * The catalog: every agent the workbench knows right now — built-ins (updated by registry imports
 * of the same id), other registry imports, custom agents from settings and the demo agent — with
 * the user's overrides applied.
 */
import type { CustomAgentSettings, WorkbenchSettings } from '../settings-schema';
import { applyCapabilityOverrides } from '../settings-schema';
import type { AgentDefinition, ClientCapabilityOverrides, ClientCapabilitySettings, LaunchCandidate, RegistryPlatform } from '../types';
import { BUILTIN_AGENTS } from './builtins';
import { demoAgent } from './demo';
import { currentRegistryPlatform, registryDefinition } from './registry-entry';

export interface CatalogOptions {
  /** The build's dist folder (for the demo agent); default: next to the running bundle. */
  distDir?: string;
  /** Registry platform used to pick binaries; default: this machine. */
  platform?: RegistryPlatform | undefined;
}

function customDefinition(agent: CustomAgentSettings): AgentDefinition {
  return {
    id: agent.id,
    aliases: [],
    name: agent.name,
    description: agent.description ?? `Custom agent: ${[agent.command, ...agent.args].join(' ')}`,
    source: 'custom',
    launch: [{ kind: 'path', command: agent.command, args: agent.args }],
    env: agent.env,
    envVars: [],
    install: { text: `A custom agent from settings.json: make sure \`${agent.command}\` exists (on PATH or as a full path).` },
    quirks: [],
    cwd: agent.cwd,
    disabled: false,
  };
}

function withArgs(candidate: LaunchCandidate, extra: string[]): LaunchCandidate {
  return extra.length ? { ...candidate, args: [...candidate.args, ...extra] } : candidate;
}

export function buildCatalog(settings: WorkbenchSettings, options: CatalogOptions = {}): AgentDefinition[] {
  const platform = 'platform' in options ? options.platform : currentRegistryPlatform();
  const registryById = new Map(settings.registryAgents.map((r) => [r.id, r]));
  const agents: AgentDefinition[] = [];
  for (const builtin of BUILTIN_AGENTS) {
    const record = registryById.get(builtin.id);
    agents.push(record ? registryDefinition(record, platform, builtin) : structuredClone(builtin));
    registryById.delete(builtin.id);
  }
  for (const record of registryById.values()) agents.push(registryDefinition(record, platform));
  for (const custom of settings.customAgents) agents.push(customDefinition(custom));
  agents.push(demoAgent(options.distDir));

  return agents.map((agent) => {
    const override = settings.agentOverrides[agent.id];
    if (!override) return agent;
    return {
      ...agent,
      launch: agent.launch.map((c) => withArgs(c, override.args ?? [])),
      env: { ...agent.env, ...override.env },
      disabled: override.disabled ?? agent.disabled,
      ...(override.clientCapabilities ? { clientCapabilities: mergeOverrides(agent.clientCapabilities, override.clientCapabilities) } : {}),
    };
  });
}

/** Look an agent up by id or alias. */
export function findAgent(catalog: readonly AgentDefinition[], idOrAlias: string): AgentDefinition | undefined {
  return catalog.find((a) => a.id === idOrAlias) ?? catalog.find((a) => a.aliases.includes(idOrAlias));
}

export class UnknownAgentError extends Error {
  constructor(
    readonly agentId: string,
    readonly knownIds: string[],
  ) {
    super(`unknown agent "${agentId}". Known agents: ${knownIds.join(', ')}`);
    this.name = 'UnknownAgentError';
  }
}

export function getAgent(catalog: readonly AgentDefinition[], idOrAlias: string): AgentDefinition {
  const agent = findAgent(catalog, idOrAlias);
  if (!agent) throw new UnknownAgentError(idOrAlias, catalog.map((a) => a.id));
  return agent;
}

/** The user's override over the agent's own defaults (a built-in may withhold a capability it mishandles). */
function mergeOverrides(base: ClientCapabilityOverrides | undefined, over: ClientCapabilityOverrides): ClientCapabilityOverrides {
  return { ...base, ...over, ...(base?.fs || over.fs ? { fs: { ...base?.fs, ...over.fs } } : {}), ...(base?.auth || over.auth ? { auth: { ...base?.auth, ...over.auth } } : {}) };
}

/** The capability switches to advertise to this agent: global defaults, then its override. */
export function clientCapabilitiesFor(agent: AgentDefinition, settings: WorkbenchSettings): ClientCapabilitySettings {
  return applyCapabilityOverrides(settings.clientCapabilities, agent.clientCapabilities);
}
