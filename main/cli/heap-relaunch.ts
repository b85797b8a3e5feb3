import { spawn } from 'node:child_process';

/**
 * The young generation of the process that runs the core for `web` (issue #11, decisions.md): a
 * flood of agent output allocates ≈ 1 GB/s of short-lived objects, and V8 lets the young generation
 * grow to its default maximum (2 × 16 MiB semi-spaces), all of it resident, plus the stdout chunks
 * that wait for the next scavenge. V8 fixes that size when the heap is set up, so it cannot be set
 * at run time (`v8.setFlagsFromString` leaves it alone): the launcher starts the command once more,
 * with the flag on the command line. Only for `web`, which serves for hours and hosts every session;
 * the one-shot commands keep their start-up (one more Node start, ≈ 40–60 ms).
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=8';

/** Commands relaunched with the flag. */
export const RELAUNCHED_COMMANDS: ReadonlySet<string> = new Set(['web']);

/** Set in the relaunched process's environment (removed there at once): never relaunch twice. */
export const RELAUNCHED_ENV = 'ACP_WORKBENCH_RELAUNCHED';
/** `ACP_WORKBENCH_HEAP_RELAUNCH=0` runs every command in the launcher's own process. */
export const RELAUNCH_SWITCH_ENV = 'ACP_WORKBENCH_HEAP_RELAUNCH';

const SEMI_SPACE = /^--max[-_]semi[-_]space[-_]size(=|$)/;

/**
 * The Node options to start `argv` (the arguments after the script) with, or null to run it here:
 * not a relaunched command, already relaunched, switched off, or the young generation already
 * chosen by whoever started us (on the command line or in NODE_OPTIONS).
 */
export function relaunchNodeArgs(argv: readonly string[], execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] | null {
  if (!RELAUNCHED_COMMANDS.has(argv[0] ?? '')) return null;
  if (env[RELAUNCHED_ENV] || env[RELAUNCH_SWITCH_ENV] === '0') return null;
  if (execArgv.some((a) => SEMI_SPACE.test(a))) return null;
  if ((env.NODE_OPTIONS ?? '').split(/\s+/).some((a) => SEMI_SPACE.test(a))) return null;
  return [...execArgv, YOUNG_GENERATION_FLAG];
}

/**
 * Runs `script argv` in a new Node process with `nodeArgs` and ends as it ends (its exit code, or
 * the same signal). The child shares stdin/stdout/stderr. SIGTERM and SIGHUP are passed on; SIGINT
 * too, unless stdin is a terminal (Ctrl-C reaches the whole foreground group, the child included —
 * a second SIGINT would cut its shutdown short). If the launcher is killed outright, the child sees
 * its IPC channel close and stops itself (`followLauncher`). `fallback` runs here when the spawn fails.
 */
export function relaunch(script: string, argv: readonly string[], nodeArgs: readonly string[], fallback: () => void): void {
  const child = spawn(process.execPath, [...nodeArgs, script, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [RELAUNCHED_ENV]: '1' },
  });
  let spawned = false;
  const signals: NodeJS.Signals[] = process.stdin.isTTY ? ['SIGTERM', 'SIGHUP'] : ['SIGTERM', 'SIGHUP', 'SIGINT'];
  const pass = (signal: NodeJS.Signals) => void child.kill(signal);
  const keep = () => undefined;
  child.once('spawn', () => {
    spawned = true;
    for (const s of signals) process.on(s, pass);
    if (process.stdin.isTTY) process.on('SIGINT', keep);
  });
  child.once('error', (err) => {
    if (spawned) return;
    process.stderr.write(`acp-workbench: could not start with ${YOUNG_GENERATION_FLAG} (${err.message}); running without it\n`);
    fallback();
  });
  child.once('exit', (code, signal) => {
    for (const s of signals) process.off(s, pass);
    process.off('SIGINT', keep);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/**
 * In the relaunched process: forget the marker (the agents and tools it starts must not inherit
 * it) and stop as on SIGTERM when the launcher is gone (its IPC channel closes — even after SIGKILL).
 */
export function followLauncher(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env[RELAUNCHED_ENV]) return false;
  delete env[RELAUNCHED_ENV];
  if (!process.channel) return true;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  return true;
}
