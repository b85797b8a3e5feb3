import type { CliCommand } from '../command';
import { runSubcommand } from '../subcommands';
import { FILTER_HELP } from '../sessions/common';
import { sessionsSubcommands } from '../sessions';

function usage(): string {
  const width = Math.max(...sessionsSubcommands.map((s) => s.name.length));
  return [
    ...sessionsSubcommands.map((s, i) => `${i === 0 ? 'Usage: ' : '       '}acp-workbench sessions ${s.name} ${s.synopsis}`.trimEnd()),
    '',
    'Every session recorded in the data folder (by the app, the web host or `acp-workbench run`),',
    'from the history index (kept current from the traces; rebuilt when missing or damaged).',
    'ID is a workbench session id or a unique prefix of one. Without a subcommand: list.',
    '',
    ...sessionsSubcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    FILTER_HELP,
    '',
    'Search matches sessions containing every word (in any order); a word ending in * is a prefix.',
    'With --json, one JSON object per line (see docs/cli.md).',
  ].join('\n');
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  get usage() {
    return usage();
  },
  run: (argv, io) =>
    runSubcommand(argv, io, Object.fromEntries(sessionsSubcommands.map((s) => [s.name, s.run.bind(s)])), sessionsSubcommands[0]!.name),
};
