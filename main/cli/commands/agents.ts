import { resolve } from 'node:path';
import { acpProbe } from '../../core/agents/acp-probe';
import {
  addCustomAgent,
  buildCatalog,
  DEFAULT_REGISTRY_URL,
  detectAgents,
  findAgent,
  findExecutable,
  formatSettingsProblem,
  getLoginShellEnv,
  importRegistry,
  loadSettings,
  PROBE_NOT_WIRED,
  RegistryError,
  removeAgentFromSettings,
  runDoctor,
  SecretStore,
  SettingsError,
  type AgentDefinition,
  type Detection,
  type DoctorReport,
  type ImportResult,
  type LoadedSettings,
  type LoginEnv,
} from '../../core/agents';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';
import { runSubcommand } from '../subcommands';
import { agentsSecrets, SECRETS_USAGE } from './agents-secrets';

const USAGE = `Usage: acp-workbench agents [list] [--json]
       acp-workbench agents add NAME [--id ID] [--env NAME=VALUE]... [--cwd DIR] [--description TEXT]
                                -- COMMAND [ARGS...]
       acp-workbench agents remove ID
       acp-workbench agents import-registry [FILE|URL] [--timeout SECONDS]
       acp-workbench agents doctor [ID] [--no-probe] [--json]
       acp-workbench ${SECRETS_USAGE}

Manage the agents the workbench knows: built-ins, agents imported from the ACP registry,
your custom agents (stored in <config-dir>/settings.json) and the demo agent.

  list             every agent with its source, whether it is installed and its version
                   (looked up with your login shell's PATH)
  add              add a custom agent: NAME, then the command after --. Its id is a slug of
                   NAME unless --id is given. --env sets non-secret variables (repeatable);
                   --cwd runs it in a fixed folder instead of the session's folder
  remove           remove a custom or registry-imported agent (and its stored secrets)
  import-registry  import agents from an ACP registry document (a file or an http(s) URL;
                   default: ${DEFAULT_REGISTRY_URL}).
                   Importing again updates them. Binaries are not downloaded: their entry
                   says where to get them
  doctor           check one agent (or all): installed? version? keys set? and what to do.
                   Exits 3 when the agent ID cannot be started
  secrets          an agent's secrets (API keys, passed to it as environment variables):
                   list their names and whether each is readable here; set NAME reads the
                   value from stdin (typed without echo at a terminal, else one piped line;
                   never an argument); delete NAME removes one. Values are never printed

Every command that takes --agent ID accepts these ids (and aliases like "claude").`;

function warnSettings(loaded: LoadedSettings, io: CliIo): void {
  for (const p of loaded.problems) io.stderr(`acp-workbench agents: ${formatSettingsProblem(p)}\n`);
}

function installedLabel(d: Detection): string {
  if (d.installed) return 'yes';
  if (d.runnable) return `via ${d.via}`;
  return 'no';
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n')}\n`;
}

async function context(io: CliIo, configDir: string) {
  const loaded = await loadSettings(configDir);
  warnSettings(loaded, io);
  const catalog = buildCatalog(loaded.settings);
  const loginEnv = await getLoginShellEnv({ baseEnv: io.env });
  return { loaded, catalog, loginEnv };
}

async function list(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, {}, io.env);
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const { loaded, catalog, loginEnv } = await context(io, args.paths.configDir);
  const detections = await detectAgents(catalog, { env: loginEnv.env, sessionCwd: io.cwd });
  const defaultId = loaded.settings.defaultAgent ? findAgent(catalog, loaded.settings.defaultAgent)?.id : undefined;
  if (args.values.json) {
    catalog.forEach((agent, i) => {
      const d = detections[i]!;
      io.stdout(
        `${JSON.stringify({
          type: 'agent',
          id: agent.id,
          name: agent.name,
          source: agent.source,
          installed: d.installed,
          runnable: d.runnable,
          via: d.via ?? null,
          version: d.version ?? null,
          command: d.commandPath ?? null,
          disabled: agent.disabled,
          default: agent.id === defaultId,
          aliases: agent.aliases,
        })}\n`,
      );
    });
    return ExitCode.ok;
  }
  const rows = [['ID', 'NAME', 'SOURCE', 'INSTALLED', 'VERSION']];
  catalog.forEach((agent, i) => {
    const d = detections[i]!;
    const marks = [agent.id === defaultId ? 'default' : '', agent.disabled ? 'disabled' : ''].filter(Boolean);
    rows.push([agent.id, marks.length ? `${agent.name} (${marks.join(', ')})` : agent.name, agent.source, installedLabel(d), d.version ?? '']);
  });
  io.stdout(table(rows));
  if (loginEnv.error) io.stderr(`acp-workbench agents: note: ${loginEnv.error}\n`);
  return ExitCode.ok;
}

const SECRET_LOOKING = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

async function add(argv: string[], io: CliIo): Promise<ExitCode> {
  const dash = argv.indexOf('--');
  if (dash < 0) throw new UsageError('give the agent command after "--", e.g. agents add "My agent" -- my-agent --acp');
  const [command, ...commandArgs] = argv.slice(dash + 1);
  if (!command) throw new UsageError('the command after "--" is missing');
  const args = parseCommandArgs(
    argv.slice(0, dash),
    { id: { type: 'string' }, env: { type: 'string', multiple: true }, cwd: { type: 'string' }, description: { type: 'string' } },
    io.env,
  );
  const [name, ...extra] = args.positionals;
  if (!name) throw new UsageError('the agent NAME is missing');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}" (quote a NAME with spaces)`);
  const env: Record<string, string> = {};
  for (const pair of args.values.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env needs NAME=VALUE, got "${pair}"`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  let agent;
  try {
    agent = await addCustomAgent(args.paths.configDir, {
      name,
      ...(args.values.id !== undefined ? { id: args.values.id } : {}),
      ...(args.values.description !== undefined ? { description: args.values.description } : {}),
      command,
      args: commandArgs,
      env,
      ...(args.values.cwd !== undefined ? { cwd: { folder: resolve(io.cwd, args.values.cwd) } } : {}),
    });
  } catch (err) {
    if (err instanceof SettingsError) {
      io.stderr(`acp-workbench agents add: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  const file = (await loadSettings(args.paths.configDir)).file;
  if (args.values.json) {
    io.stdout(`${JSON.stringify({ type: 'added', id: agent.id, name: agent.name, command: agent.command, args: agent.args, settingsFile: file })}\n`);
  } else {
    io.stdout(`Added custom agent "${agent.id}" (${agent.name}): ${[agent.command, ...agent.args].join(' ')}\nSaved in ${file}\n`);
  }
  for (const key of Object.keys(env).filter((k) => SECRET_LOOKING.test(k))) {
    io.stderr(`acp-workbench agents add: warning: ${key} looks like a secret, and settings.json is plain text; store it in the secret store instead: acp-workbench agents secrets ${agent.id} set ${key} (or the app's Settings → Secrets).\n`);
  }
  const loginEnv = await getLoginShellEnv({ baseEnv: io.env });
  if (!findExecutable(command, loginEnv.env, { cwd: io.cwd })) io.stderr(`acp-workbench agents add: warning: \`${command}\` was not found on your PATH (yet).\n`);
  return ExitCode.ok;
}

async function remove(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, {}, io.env);
  const [id, ...extra] = args.positionals;
  if (!id) throw new UsageError('the agent ID is missing');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const loaded = await loadSettings(args.paths.configDir);
  const agent = findAgent(buildCatalog(loaded.settings), id);
  if (agent && (agent.source === 'builtin' || agent.source === 'demo')) {
    io.stderr(
      `acp-workbench agents remove: "${agent.id}" is ${agent.source === 'demo' ? 'the demo agent' : 'a built-in agent'} and cannot be removed. To hide it, set "agentOverrides": {"${agent.id}": {"disabled": true}} in ${loaded.file}.\n`,
    );
    return ExitCode.usage;
  }
  let removed: boolean;
  try {
    removed = agent ? await removeAgentFromSettings(args.paths.configDir, agent.id) : false;
  } catch (err) {
    if (err instanceof SettingsError) {
      io.stderr(`acp-workbench agents remove: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  if (!removed) {
    const removable = buildCatalog(loaded.settings).filter((a) => a.source === 'custom' || a.source === 'registry').map((a) => a.id);
    io.stderr(`acp-workbench agents remove: no custom or imported agent has the id "${id}". Removable: ${removable.join(', ') || 'none'}.\n`);
    return ExitCode.usage;
  }
  try {
    await (await SecretStore.open(args.paths.dataDir)).delete(agent!.id);
  } catch (err) {
    io.stderr(`acp-workbench agents remove: warning: its secrets were not removed: ${(err as Error).message}\n`);
  }
  if (args.values.json) io.stdout(`${JSON.stringify({ type: 'removed', id: agent!.id })}\n`);
  else io.stdout(`Removed "${agent!.id}" (${agent!.name}).\n`);
  return ExitCode.ok;
}

function importSummary(r: ImportResult): string {
  const lines = [`Imported registry ${r.registryVersion} from ${r.source} (platform ${r.platform ?? 'unknown'}):`];
  const item = (label: string, values: string[]) => lines.push(`  ${label}: ${values.length ? values.join(', ') : 'none'}`);
  item('added', r.added);
  item('updated', r.updated.map((u) => (u.from === u.to ? u.id : `${u.id} ${u.from} → ${u.to}`)));
  item('unchanged', r.unchanged);
  if (r.unsupported.length) item('not available on this platform', r.unsupported.map((u) => `${u.id} (${u.reason})`));
  if (r.skipped.length) item('skipped', r.skipped.map((s) => `${s.id} (${s.reason})`));
  for (const p of r.problems) lines.push(`  invalid entry ${p.path}: ${p.message}`);
  lines.push('Agents distributed as binaries are not downloaded: `acp-workbench agents doctor ID` says where to get them.');
  return `${lines.join('\n')}\n`;
}

async function importRegistryCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, { timeout: { type: 'string' } }, io.env);
  const [source = DEFAULT_REGISTRY_URL, ...extra] = args.positionals;
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  let timeoutMs: number | undefined;
  if (args.values.timeout !== undefined) {
    const seconds = Number(args.values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a number of seconds, got "${args.values.timeout}"`);
    timeoutMs = seconds * 1000;
  }
  let result: ImportResult;
  try {
    result = await importRegistry(args.paths.configDir, source, { cwd: io.cwd, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (err) {
    if (err instanceof RegistryError || err instanceof SettingsError) {
      io.stderr(`acp-workbench agents import-registry: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  if (args.values.json) io.stdout(`${JSON.stringify({ type: 'imported', ...result })}\n`);
  else io.stdout(importSummary(result));
  return ExitCode.ok;
}

const LEVEL_MARK = { ok: 'ok   ', info: 'info ', warning: 'warn ', error: 'error' } as const;

function envLine(loginEnv: LoginEnv): string {
  return loginEnv.source === 'login-shell'
    ? `Environment: from your login shell ${loginEnv.shell} (${loginEnv.durationMs} ms)`
    : `Environment: this process's (${loginEnv.error})`;
}

function doctorDetail(r: DoctorReport): string {
  const lines = [`${r.id} (${r.name}, ${r.source}): ${r.status}`];
  if (r.launch) lines.push(`  launch: ${r.launch}`);
  for (const f of r.findings) {
    lines.push(`  ${LEVEL_MARK[f.level]} ${f.message}`);
    if (f.fix && f.level !== 'ok') lines.push(`        fix: ${f.fix}`);
  }
  return lines.join('\n');
}

function doctorSummary(r: DoctorReport): string {
  const key = r.findings.find((f) => f.level === r.status || (r.status === 'ok' && f.level === 'info')) ?? r.findings[0]!;
  const lines = [`${LEVEL_MARK[r.status]} ${r.id}: ${key.message}`];
  if (key.fix && r.status !== 'ok') lines.push(`        fix: ${key.fix}`);
  return lines.join('\n');
}

async function doctor(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseCommandArgs(argv, { 'no-probe': { type: 'boolean' } }, io.env);
  const [id, ...extra] = args.positionals;
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const { catalog, loginEnv } = await context(io, args.paths.configDir);
  let agents: AgentDefinition[] = catalog;
  if (id !== undefined) {
    const agent = findAgent(catalog, id);
    if (!agent) throw new UsageError(`unknown agent "${id}". Known agents: ${catalog.map((a) => a.id).join(', ')}`);
    agents = [agent];
  }
  let secrets: SecretStore | undefined;
  try {
    secrets = await SecretStore.open(args.paths.dataDir);
  } catch (err) {
    io.stderr(`acp-workbench agents doctor: warning: secrets not checked: ${(err as Error).message}\n`);
    secrets = undefined;
  }
  for (const agent of agents) {
    const unreadable = secrets?.unreadableNames(agent.id) ?? [];
    if (unreadable.length) io.stderr(`acp-workbench agents doctor: warning: ${agent.id}: secrets ${unreadable.join(', ')} were encrypted by the desktop app and cannot be read here; set them again to use them from the CLI (acp-workbench agents secrets ${agent.id} set NAME)\n`);
  }
  // The probe starts each runnable agent: initialize answered? a login needed? (--no-probe skips it)
  const probe = args.values['no-probe'] ? undefined : acpProbe(args.paths.dataDir);
  const reports = await runDoctor(agents, { env: loginEnv.env, sessionCwd: io.cwd, ...(secrets ? { secrets } : {}), ...(probe ? { probe } : {}) });
  if (args.values.json) {
    io.stdout(`${JSON.stringify({ type: 'environment', source: loginEnv.source, shell: loginEnv.shell ?? null, error: loginEnv.error ?? null })}\n`);
    for (const r of reports) io.stdout(`${JSON.stringify({ type: 'doctor', ...r })}\n`);
  } else if (id !== undefined) {
    io.stdout(`${envLine(loginEnv)}\n${doctorDetail(reports[0]!)}\n`);
  } else {
    io.stdout(`${envLine(loginEnv)}\n${reports.map(doctorSummary).join('\n')}\n\n${args.values['no-probe'] ? `Note: ${PROBE_NOT_WIRED}\n` : ''}Run \`acp-workbench agents doctor ID\` for the details of one agent.\n`);
  }
  if (id !== undefined && !reports[0]!.detection.runnable) return ExitCode.agentStartFailed;
  return ExitCode.ok;
}

export const agentsCommand: CliCommand = {
  name: 'agents',
  usage: USAGE,
  run: (argv, io) => runSubcommand(argv, io, { list, add, remove, 'import-registry': importRegistryCommand, doctor, secrets: (argv, io) => agentsSecrets(argv, io) }, 'list'),
};
