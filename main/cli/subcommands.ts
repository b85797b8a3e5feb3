/**
 * `acp-workbench NAME [SUB] ...`: the one dispatch every command with subcommands shares. No
 * subcommand, or a first argument that is a flag, runs the default one with all the arguments;
 * an unknown name is a usage error that lists the known ones.
 */
import type { CliIo } from './command';
import { UsageError, type ExitCode } from './exit-codes';

export type SubcommandRun = (argv: string[], io: CliIo) => Promise<ExitCode>;

export async function runSubcommand(argv: string[], io: CliIo, table: Readonly<Record<string, SubcommandRun>>, defaultName: string): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) return table[defaultName]!(argv, io);
  const run = Object.hasOwn(table, first) ? table[first] : undefined;
  if (!run) throw new UsageError(`unknown subcommand "${first}" (one of ${Object.keys(table).join(', ')})`);
  return run(rest, io);
}
