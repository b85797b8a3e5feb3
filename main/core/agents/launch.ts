/**
 * From an agent id to a process ready to spawn: `{command, args, env, cwd}`. This is what
 * `--agent ID` means in every CLI command and what the app runs for a new session.
 *
 * Candidates are tried in the definition's order (installed binary, npx, uvx, shipped script);
 * "installed" is judged with the login-shell PATH, the same one the process then runs with.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildCatalog, clientCapabilitiesFor, findAgent, type CatalogOptions } from './catalog/catalog';
import { getLoginShellEnv, type LoginEnv } from './login-env';
import { SecretStore, type Encryptor } from './secrets';
import { formatSettingsProblem, loadSettings, type WorkbenchSettings } from './settings';
import type { AgentDefinition, ClientCapabilitySettings, LaunchCandidate, ResolvedLaunch } from './types';
import { findExecutable } from './which';

export type LaunchErrorCode = 'unknown_agent' | 'disabled' | 'not_installed';

export class LaunchError extends Error {
  constructor(
    readonly code: LaunchErrorCode,
    message: string,
    readonly agentId: string,
    /** What the user can do about it. */
    readonly fix?: string,
    readonly knownIds: string[] = [],
  ) {
    super(fix ? `${message}\n${fix}` : message);
    this.name = 'LaunchError';
    this.problem = message;
  }

  /** The message without the fix, for hosts that show the fix apart (an API error's hint). */
  readonly problem: string;
}

export interface LaunchContext {
  catalog: readonly AgentDefinition[];
  /** The environment agents start from: normally the login-shell env. */
  env: NodeJS.ProcessEnv;
  /** The session's folder (absolute): the agent's cwd unless its settings fix one. */
  sessionCwd: string;
  /** Secret env values of the agent (secret store). */
  secrets?: { envFor(agentId: string): Record<string, string> };
  isRoot?: boolean;
  platform?: NodeJS.Platform;
  /** The Node that runs shipped scripts (default: this process's). */
  nodePath?: string;
  /** Launch even when settings disable the agent (the user picked it explicitly in the UI). */
  allowDisabled?: boolean;
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function displayCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}

export function expandHome(folder: string, env: NodeJS.ProcessEnv): string {
  if (folder === '~') return env.HOME || homedir();
  if (folder.startsWith('~/')) return join(env.HOME || homedir(), folder.slice(2));
  return folder;
}

export function agentCwd(agent: AgentDefinition, sessionCwd: string, env: NodeJS.ProcessEnv): string {
  return agent.cwd === 'session' ? sessionCwd : expandHome(agent.cwd.folder, env);
}

interface Runnable {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function tryCandidate(c: LaunchCandidate, env: NodeJS.ProcessEnv, cwd: string, ctx: LaunchContext): Runnable | string {
  const platform = ctx.platform ?? process.platform;
  switch (c.kind) {
    case 'path': {
      const found = findExecutable(c.command, env, { platform, cwd });
      return found ? { command: found, args: c.args, env: {} } : `\`${c.command}\` is not on the login-shell PATH`;
    }
    case 'npx':
    case 'uvx': {
      const runner = findExecutable(c.kind, env, { platform, cwd });
      if (!runner) return `${c.kind} (for ${c.package}) is not on the login-shell PATH`;
      return { command: runner, args: c.kind === 'npx' ? ['-y', c.package, ...c.args] : [c.package, ...c.args], env: {} };
    }
    case 'node-script': {
      if (!existsSync(c.script)) return `${c.script} does not exist (is the app built?)`;
      // Under Electron, execPath is the app binary: this makes it behave as plain Node.
      const electronEnv: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
      return { command: ctx.nodePath ?? process.execPath, args: [c.script, ...c.args], env: electronEnv };
    }
    case 'download':
      return `needs a download the workbench does not do: ${c.archive}`;
  }
}

/** The launch for an agent id or alias; throws a LaunchError that says what to do. */
export function resolveLaunch(idOrAlias: string, ctx: LaunchContext): ResolvedLaunch {
  const agent = findAgent(ctx.catalog, idOrAlias);
  if (!agent) {
    const known = ctx.catalog.map((a) => a.id);
    throw new LaunchError('unknown_agent', `unknown agent "${idOrAlias}". Known agents: ${known.join(', ')}`, idOrAlias, undefined, known);
  }
  if (agent.disabled && !ctx.allowDisabled) {
    throw new LaunchError('disabled', `${agent.name} (${agent.id}) is disabled in settings.`, agent.id, `Set agentOverrides.${agent.id}.disabled to false in settings.json to use it.`);
  }
  const cwd = resolve(ctx.sessionCwd, agentCwd(agent, ctx.sessionCwd, ctx.env));
  const reasons: string[] = [];
  for (const candidate of agent.launch) {
    const r = tryCandidate(candidate, ctx.env, cwd, ctx);
    if (typeof r === 'string') {
      reasons.push(r);
      continue;
    }
    const isRoot = ctx.isRoot ?? process.getuid?.() === 0;
    const quirkEnv: Record<string, string> = {};
    for (const quirk of agent.quirks) {
      if (!quirk.env || (quirk.when === 'root' && !isRoot)) continue;
      // A value the user set explicitly wins over the workaround.
      for (const [k, v] of Object.entries(quirk.env)) if (!(k in agent.env)) quirkEnv[k] = v;
    }
    const secretEnv = ctx.secrets?.envFor(agent.id) ?? {};
    const secretEnvNames = Object.keys(secretEnv);
    return {
      agentId: agent.id,
      agentName: agent.name,
      source: agent.source,
      command: r.command,
      args: r.args,
      env: { ...ctx.env, ...r.env, ...quirkEnv, ...agent.env, ...secretEnv },
      cwd,
      via: candidate.kind,
      display: displayCommand(r.command, r.args),
      ...(secretEnvNames.length ? { secretEnvNames } : {}),
    };
  }
  const why = reasons.length ? ` (${reasons.join('; ')})` : '';
  throw new LaunchError('not_installed', `${agent.name} (${agent.id}) cannot be started: it is not installed${why}.`, agent.id, `To install: ${agent.install.text}`);
}

export interface AgentLaunchRequest {
  agentId: string;
  configDir: string;
  dataDir: string;
  /** Default: the process's cwd. */
  sessionCwd?: string;
  /** The environment to ask the login shell from (default process.env). */
  processEnv?: NodeJS.ProcessEnv;
  encryptor?: Encryptor;
  catalogOptions?: CatalogOptions;
  allowDisabled?: boolean;
}

export interface AgentLaunchResult {
  launch: ResolvedLaunch;
  /** What to advertise to this agent: the global defaults, its own, then the user's override. */
  capabilities: ClientCapabilitySettings;
  /** Settings problems and environment fallbacks worth showing; none of them stopped the launch. */
  warnings: string[];
  loginEnv: LoginEnv;
  settings: WorkbenchSettings;
}

/** Everything in one call: settings, catalog, login-shell env, secrets → the launch. */
export async function resolveAgentLaunch(req: AgentLaunchRequest): Promise<AgentLaunchResult> {
  const loaded = await loadSettings(req.configDir);
  const warnings = loaded.problems.map(formatSettingsProblem);
  const catalog = buildCatalog(loaded.settings, req.catalogOptions);
  const loginEnv = await getLoginShellEnv({ baseEnv: req.processEnv ?? process.env });
  if (loginEnv.error) warnings.push(`login-shell environment not used: ${loginEnv.error}`);
  let secrets: SecretStore | undefined;
  try {
    secrets = await SecretStore.open(req.dataDir, req.encryptor);
  } catch (err) {
    warnings.push(`secrets not used: ${(err as Error).message}`);
    secrets = undefined;
  }
  const launch = resolveLaunch(req.agentId, {
    catalog,
    env: loginEnv.env,
    sessionCwd: req.sessionCwd ?? process.cwd(),
    ...(secrets ? { secrets } : {}),
    ...(req.allowDisabled ? { allowDisabled: true } : {}),
  });
  const agent = findAgent(catalog, launch.agentId)!;
  const unreadable = secrets?.unreadableNames(launch.agentId) ?? [];
  if (unreadable.length) warnings.push(`secrets not used: ${unreadable.join(', ')} of ${launch.agentId} cannot be decrypted here (stored by another host's encryption); set them again in this app`);
  return { launch, capabilities: clientCapabilitiesFor(agent, loaded.settings), warnings, loginEnv, settings: loaded.settings };
}
