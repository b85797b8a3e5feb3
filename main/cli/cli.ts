import type { CliIo } from './command';
import { commands } from './commands';
import { ExitCode, UsageError } from './exit-codes';

export function globalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map(
    (c) => `  ${c.name.padEnd(width)}  ${c.summary}${c.notAvailableYet ? ' (not available yet)' : ''}`,
  );
  return [
    'Usage: acp-workbench <command> [options]',
    '',
    'A workbench for coding agents that speak the Agent Client Protocol.',
    '',
    'Commands:',
    ...lines,
    '',
    'Common options:',
    '  --data-dir DIR     where traces and the history index live (also ACP_WORKBENCH_DATA_DIR)',
    '  --config-dir DIR   where settings live (also ACP_WORKBENCH_CONFIG_DIR)',
    '  --json             machine-readable output: one JSON object per line on stdout',
    '  -h, --help         help for the command',
    '  --version          print the version',
    '',
    'Exit codes: 0 ok, 1 check found errors, 2 usage error, 3 agent failed to start, 4 turn did not finish.',
    'See docs/cli.md for every command.',
    '',
  ].join('\n');
}

/** Run the CLI with the arguments after the program name; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(globalHelp());
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${__WORKBENCH_VERSION__}\n`);
    return ExitCode.ok;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`acp-workbench: unknown command "${name}". Run \`acp-workbench --help\` for the list.\n`);
    return ExitCode.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}\n`);
    return ExitCode.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`acp-workbench ${name}: ${err.message}\n\n${command.usage}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
}
