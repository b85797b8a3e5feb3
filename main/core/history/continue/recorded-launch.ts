/**
 * A past session's agent, launched again as it was: the trace header's command, args, cwd and
 * non-secret environment; the secret variables (recorded by name only) from the secret store of
 * the agent id, else from the current environment. Overrides (`--env`) win. The client
 * capabilities it was started without are withheld again (withheld-capabilities.ts).
 */
import type { TraceHeader } from '../../../../common/trace/records';
import { REDACTED } from '../../../../common/trace/launch-spec';
import type { AgentLaunch } from '../../sessions/start-session';
import type { HistoryEntry } from '../history-types';
import { withheldCapabilities } from './withheld-capabilities';

export interface RecordedLaunch {
  launch: AgentLaunch;
  /** What could not be restored (a secret nobody knows, a redacted argument). */
  warnings: string[];
}

export function launchFromTrace(
  entry: HistoryEntry,
  header: TraceHeader | undefined,
  options: { secrets?: { envFor(agentId: string): Record<string, string> }; processEnv?: NodeJS.ProcessEnv; env?: Record<string, string> } = {},
): RecordedLaunch {
  if (!header?.launch?.command) throw new Error(`session ${entry.id} has no recorded launch (its trace header is missing); name the agent to use`);
  const spec = header.launch;
  const agentId = header.agent?.id ?? entry.agent.id ?? [spec.command, ...spec.args].join(' ');
  const secrets = safeEnvFor(options.secrets, agentId);
  const processEnv = options.processEnv ?? process.env;
  const warnings: string[] = [];
  const env: NodeJS.ProcessEnv = {};
  const missing: string[] = [];
  // Recorded without a value (a secret then) or from the secret store: never written to the new trace header.
  const secretEnvNames = new Set(Object.keys(secrets));
  for (const v of spec.env) {
    if (!('value' in v)) secretEnvNames.add(v.name);
    if ('value' in v) env[v.name] = v.value;
    else if (secrets[v.name] !== undefined) env[v.name] = secrets[v.name];
    else if (processEnv[v.name] !== undefined) env[v.name] = processEnv[v.name];
    else missing.push(v.name);
  }
  // Secrets stored since the session ran are used too.
  for (const [name, value] of Object.entries(secrets)) env[name] ??= value;
  Object.assign(env, options.env);
  const stillMissing = missing.filter((n) => options.env?.[n] === undefined);
  if (stillMissing.length) warnings.push(`secret variable(s) ${stillMissing.join(', ')} were not recorded and are not in the secret store or the environment; give them with --env`);
  if (spec.args.includes(REDACTED) || spec.args.some((a) => a.endsWith(`=${REDACTED}`))) {
    warnings.push(`an argument of the recorded command line was a secret and was not recorded; give the agent again (--agent-cmd) if it needs it`);
  }
  const withheld = withheldCapabilities(header.clientCapabilities);
  return {
    launch: {
      command: spec.command,
      args: [...spec.args],
      env,
      cwd: spec.cwd,
      label: entry.agent.label,
      agentId,
      ...(secretEnvNames.size ? { secretEnvNames: [...secretEnvNames] } : {}),
      ...(Object.keys(withheld).length ? { switches: withheld } : {}),
    },
    warnings,
  };
}

function safeEnvFor(secrets: { envFor(agentId: string): Record<string, string> } | undefined, agentId: string): Record<string, string> {
  try {
    return secrets?.envFor(agentId) ?? {};
  } catch {
    return {};
  }
}
