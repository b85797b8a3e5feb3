import type { ExitCode } from './exit-codes';

/** Where a command writes: stdout for results (JSON lines with --json), stderr for diagnostics. */
export interface CliIo {
  /** Returns false when the output is full (a pipe nobody reads fast enough): wait for `drained`. */
  stdout: (text: string) => boolean | void;
  /** The same for UTF-8 bytes, where the output takes them as they are (the executable); else they go to `stdout` as text. */
  stdoutBytes?: (bytes: Uint8Array) => boolean | void;
  /** Resolves when a full stdout can take more (`'drain'`); absent where output never fills (tests). */
  drained?: () => Promise<void>;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdin is a terminal a person can answer at. */
  interactive: boolean;
  /** True when stderr is a terminal: progress of long work is drawn there (one line, redrawn). */
  stderrIsTerminal?: boolean;
}

export interface CliCommand {
  name: string;
  /** Full usage text for `acp-workbench NAME --help`. */
  usage: string;
  run(argv: string[], io: CliIo): Promise<ExitCode>;
}

/**
 * A command as `--help` lists it; its module is loaded only when it runs. The bundle then
 * evaluates only what that command needs: `web` and `sessions search` do not build the ACP SDK's
 * schemas at start-up, for instance (issue #11, start-up).
 */
export interface CommandEntry {
  name: string;
  /** One line for `acp-workbench --help`. */
  summary: string;
  load(): Promise<CliCommand>;
}
