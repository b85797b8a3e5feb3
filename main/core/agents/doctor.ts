/**
 * The agent doctor: is this agent usable here, and if not, what exactly to do about it.
 * Detection (installed? version? Node new enough? keys set?) is done here; whether the agent
 * answers `initialize` and needs a login takes an ACP connection, so it comes in as a `probe`
 * the host wires to the connection code. Without a probe the report says it did not check.
 */
import { commandVersion, detectAgent, type Detection } from './detect';
import { LaunchError, resolveLaunch } from './launch';
import type { AgentDefinition, AgentSource, ResolvedLaunch } from './types';
import { findExecutable } from './which';

export interface ProbeAuthMethod {
  id: string;
  name: string;
  /** ACP auth method type; absent = "agent". */
  type?: string;
  description?: string;
  /** A terminal login: the command a person runs in their own terminal (the app runs it in its own). */
  loginCommand?: string;
}

export interface ProbeResult {
  initialized: boolean;
  authMethods: ProbeAuthMethod[];
  /** `session/new` answered "Authentication required" (-32000). */
  authRequired?: boolean;
  error?: string;
}

/** Start the agent, send `initialize`, report, stop it. Wired by the host to the ACP connection. */
export type Probe = (launch: ResolvedLaunch) => Promise<ProbeResult>;

export type FindingLevel = 'ok' | 'info' | 'warning' | 'error';

export interface DoctorFinding {
  level: FindingLevel;
  message: string;
  fix?: string;
}

export interface DoctorReport {
  id: string;
  name: string;
  source: AgentSource;
  detection: Detection;
  /** The launch command for people, when it resolves. */
  launch?: string;
  findings: DoctorFinding[];
  /** Whether initialize/authentication were checked. */
  probed: boolean;
  /** The worst finding. */
  status: 'ok' | 'warning' | 'error';
}

export interface DoctorOptions {
  /** The login-shell environment. */
  env: NodeJS.ProcessEnv;
  probe?: Probe;
  /** Names of secrets stored per agent (values are not needed). */
  secrets?: { names(agentId: string): string[]; envFor(agentId: string): Record<string, string> };
  isRoot?: boolean;
  sessionCwd?: string;
  versionTimeoutMs?: number;
}

export const PROBE_NOT_WIRED =
  'initialize and authentication were not checked (--no-probe): only the installation was.';

const nodeVersions = new Map<string, Promise<number | undefined>>();

/** Major version of the `node` on the given PATH (npm-installed agents run on it). */
function nodeMajorOnPath(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<number | undefined> {
  const node = findExecutable('node', env);
  if (!node) return Promise.resolve(undefined);
  let pending = nodeVersions.get(node);
  if (!pending) {
    pending = commandVersion(node, { env, timeoutMs }).then((v) => (v.version ? Number(v.version.split('.')[0]) : undefined));
    nodeVersions.set(node, pending);
  }
  return pending;
}

function worst(findings: DoctorFinding[]): DoctorReport['status'] {
  if (findings.some((f) => f.level === 'error')) return 'error';
  if (findings.some((f) => f.level === 'warning')) return 'warning';
  return 'ok';
}

export async function doctorAgent(agent: AgentDefinition, options: DoctorOptions): Promise<DoctorReport> {
  const findings: DoctorFinding[] = [];
  const timeoutMs = options.versionTimeoutMs ?? 5_000;
  const detection = await detectAgent(agent, { env: options.env, versionTimeoutMs: timeoutMs, ...(options.sessionCwd ? { sessionCwd: options.sessionCwd } : {}) });

  if (agent.disabled) {
    findings.push({ level: 'warning', message: 'disabled in settings', fix: `Set agentOverrides.${agent.id}.disabled to false in settings.json.` });
  }
  if (!detection.runnable) {
    findings.push({ level: 'error', message: detection.problem ?? 'cannot be started', ...(detection.fix ? { fix: detection.fix } : {}) });
  } else if (detection.installed) {
    findings.push({ level: 'ok', message: `installed: ${detection.commandPath}${detection.version ? ` (version ${detection.version})` : ''}` });
    if (detection.problem) findings.push({ level: 'warning', message: `version check: ${detection.problem}` });
  } else {
    findings.push({
      level: 'info',
      message: `not installed; runs through ${detection.via}${detection.version ? ` at version ${detection.version}` : ''} (the first start downloads it, 10–20 s)`,
      fix: agent.install.text,
    });
  }

  if (agent.minNodeMajor && detection.runnable && (detection.via === 'npx' || detection.via === 'path')) {
    const major = await nodeMajorOnPath(options.env, timeoutMs);
    if (major !== undefined && major < agent.minNodeMajor) {
      findings.push({
        level: 'warning',
        message: `needs Node ${agent.minNodeMajor} or newer; the node on your login PATH is ${major}`,
        fix: `Install Node ${agent.minNodeMajor} (e.g. \`nvm install ${agent.minNodeMajor}\`)${
          agent.install.npmPackage ? `, or add a custom agent running an older version that supports your Node: \`acp-workbench agents add NAME -- npx -y ${agent.install.npmPackage}@VERSION\`` : ''
        }.`,
      });
    }
  }

  const stored = new Set(options.secrets?.names(agent.id) ?? []);
  for (const spec of agent.envVars) {
    if (stored.has(spec.name)) findings.push({ level: 'ok', message: `${spec.name} is set (secret store)` });
    else if (options.env[spec.name] || agent.env[spec.name]) findings.push({ level: 'ok', message: `${spec.name} is set in the environment` });
    else if (spec.required) findings.push({ level: 'error', message: `${spec.name} is not set: ${spec.description}`, fix: `Set ${spec.name} for ${agent.name} in Settings → Secrets, or with \`acp-workbench agents secrets ${agent.id} set ${spec.name}\` (the value is read from stdin).` });
    else findings.push({ level: 'info', message: `${spec.name} is not set (optional): ${spec.description}` });
  }

  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  for (const quirk of agent.quirks) {
    if (quirk.when === 'root' && !isRoot) continue;
    const applied = quirk.env ? ` (the workbench sets ${Object.entries(quirk.env).map(([k, v]) => `${k}=${v}`).join(' ')})` : '';
    findings.push({ level: 'info', message: `known quirk: ${quirk.description}${applied}` });
  }

  let launch: ResolvedLaunch | undefined;
  if (detection.runnable) {
    try {
      launch = resolveLaunch(agent.id, {
        catalog: [agent],
        env: options.env,
        sessionCwd: options.sessionCwd ?? process.cwd(),
        allowDisabled: true,
        isRoot,
        ...(options.secrets ? { secrets: options.secrets } : {}),
      });
    } catch (err) {
      if (!(err instanceof LaunchError)) throw err;
    }
  }

  let probed = false;
  if (!options.probe) {
    findings.push({ level: 'info', message: PROBE_NOT_WIRED });
  } else if (launch) {
    probed = true;
    const result = await options.probe(launch).catch((err: unknown): ProbeResult => ({ initialized: false, authMethods: [], error: (err as Error).message }));
    if (!result.initialized) {
      findings.push({
        level: 'error',
        message: `did not answer initialize${result.error ? `: ${result.error}` : ''}`,
        fix: `Run \`${launch.display}\` in a terminal to see what it prints on stderr.`,
      });
    } else {
      findings.push({ level: 'ok', message: 'answers initialize' });
      if (result.authRequired) {
        const names = result.authMethods.map((m) => m.name).join(', ');
        const terminal = result.authMethods.find((m) => m.loginCommand);
        findings.push({
          level: 'warning',
          message: 'needs a login before it opens a session (session/new answered "Authentication required")',
          fix: terminal
            ? `Log in from the app (Agents → Log in…), or run \`${terminal.loginCommand}\` in a terminal (${terminal.name}).`
            : names
              ? `Log in with one of its methods from the app (Agents → Log in…): ${names}.`
              : 'Set its API key (see the agent’s environment variables) or log in with its own command.',
        });
      } else if (result.error) {
        findings.push({ level: 'warning', message: result.error });
      } else {
        findings.push({ level: 'ok', message: 'opens a session' });
      }
      if (result.authMethods.length) {
        const names = result.authMethods.map((m) => `${m.name} (${m.id}${m.type && m.type !== 'agent' ? `, ${m.type}` : ''})`).join(', ');
        findings.push({
          level: 'info',
          message: `offers login methods: ${names}`,
          fix: 'If a session fails with "Authentication required", log in with one of them from the agent panel.',
        });
      }
    }
  }

  return {
    id: agent.id,
    name: agent.name,
    source: agent.source,
    detection,
    ...(launch ? { launch: launch.display } : {}),
    findings,
    probed,
    status: worst(findings),
  };
}

export async function runDoctor(agents: readonly AgentDefinition[], options: DoctorOptions): Promise<DoctorReport[]> {
  const reports: DoctorReport[] = [];
  // One at a time: each may run `--version` and a probe that starts the agent; two cores are shared.
  for (const agent of agents) reports.push(await doctorAgent(agent, options));
  return reports;
}
