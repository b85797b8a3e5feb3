/**
 * The shape of an `acp-workbench sessions <sub>` subcommand. The table of them is in index.ts:
 * adding one (resume, fork...) is one entry there and one module beside it.
 */
import type { CliIo } from '../command';
import type { ExitCode } from '../exit-codes';

export interface SessionsSubcommand {
  name: string;
  /** Argument synopsis after the name, for the usage text (`ID [--json]`). */
  synopsis: string;
  /** One line for the usage text. */
  summary: string;
  run(argv: string[], io: CliIo): Promise<ExitCode>;
}
