/**
 * Why an agent could not be started or initialized, in words a user can act on: which agent,
 * which phase, what happened, and the tail of its stderr (the real cause is usually there).
 */
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
