/**
 * Why an agent could not be started or initialized, in words a user can act on: which agent,
 * which phase, what happened, and the tail of its stderr (the real cause is usually there).
 * Also the small helpers that put JSON-RPC errors and process exits into such words.
 */
import type { AgentExit, AgentProcess } from './agent-process';

export type StartPhase = 'spawn' | 'initialize' | 'timeout' | 'protocol-version' | 'exited';

export class AgentStartError extends Error {
  constructor(
    readonly agent: string,
    readonly phase: StartPhase,
    detail: string,
    readonly stderrTail: readonly string[] = [],
  ) {
    super(
      `${agent}: ${PHASE_TEXT[phase]}: ${detail}` +
        (stderrTail.length ? `\nLast lines of its stderr:\n${stderrTail.map((l) => `  ${l}`).join('\n')}` : ''),
    );
    this.name = 'AgentStartError';
  }
}

const PHASE_TEXT: Record<StartPhase, string> = {
  spawn: 'could not be started',
  initialize: 'failed to initialize',
  timeout: 'did not answer in time',
  'protocol-version': 'speaks a protocol version the workbench does not',
  exited: 'exited during start-up',
};

/** The readable part of a JSON-RPC error: message, code, and `data` (where the real cause often is). */
export function describeRpcError(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { message?: string; code?: number; data?: unknown };
    const data = e.data === undefined ? '' : ` (${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)})`;
    return `${e.message ?? String(err)}${e.code !== undefined ? ` [${e.code}]` : ''}${data}`;
  }
  return String(err);
}

export function describeExit(exit: AgentExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'none'}`;
}

/** The process's exit, if it comes within `ms`. */
export function exitWithin(process: AgentProcess, ms: number): Promise<AgentExit | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((r) => (timer = setTimeout(r, ms, undefined)));
  return Promise.race([process.exited, timeout]).finally(() => clearTimeout(timer));
}
