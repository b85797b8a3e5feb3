/** Exit codes of every `acp-workbench` command (docs/cli.md has the table). */
export const ExitCode = {
  ok: 0,
  /** `check` found error-level problems. */
  checkFailed: 1,
  usage: 2,
  /** An agent could not be started or initialized. */
  agentStartFailed: 3,
  /** A turn did not finish: error, crash or timeout. */
  turnFailed: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Thrown for a usage error; the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
