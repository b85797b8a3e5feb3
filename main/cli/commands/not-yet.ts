import type { CliCommand } from '../command';
import { ExitCode } from '../exit-codes';

/** A command that a later issue builds: listed in --help, exits 2 with a clear message until then. */
export function notYet(name: string, summary: string): CliCommand {
  return {
    name,
    summary,
    usage: `acp-workbench ${name} ...\n\n${summary}\n\nThis command is not available yet in this version.`,
    notAvailableYet: true,
    async run(_argv, io) {
      io.stderr(`acp-workbench ${name}: not available yet in this version.\n`);
      return ExitCode.usage;
    },
  };
}
