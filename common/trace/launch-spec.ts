/**
 * The launch spec written in a trace header. Traces are exported and shared, so a secret must never
 * reach one: variables whose names look secret keep only their name, and so do command-line values
 * given to secret-looking flags (`--api-key X`, `--token=X`).
 */
import type { LaunchEnvVar, LaunchSpec } from './records';

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL|COOKIE|SESSION_ID/i;
const SECRET_FLAG = /^--?[A-Za-z0-9_-]*(key|token|secret|password|passwd|auth|credential|cookie)[A-Za-z0-9_-]*$/i;

export const REDACTED = '<redacted>';

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export interface LaunchInput {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Names whose values are secret whatever they look like (the secret store's). */
  secretNames?: readonly string[];
}

export function describeLaunch(input: LaunchInput): LaunchSpec {
  const env: LaunchEnvVar[] = [];
  for (const name of Object.keys(input.env).sort()) {
    const value = input.env[name];
    if (value === undefined) continue;
    env.push(isSecretEnvName(name) || input.secretNames?.includes(name) ? { name, redacted: true } : { name, value });
  }
  return { command: input.command, args: redactArgs(input.args), cwd: input.cwd, env };
}

export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    if (eq > 0 && SECRET_FLAG.test(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=${REDACTED}`);
      continue;
    }
    out.push(arg);
    const next = args[i + 1];
    if (SECRET_FLAG.test(arg) && next !== undefined && !next.startsWith('-')) {
      out.push(REDACTED);
      i++;
    }
  }
  return out;
}
