import { describe, expect, it } from 'vitest';
import type { CliIo } from './command';
import { ExitCode, UsageError } from './exit-codes';
import { runSubcommand, type SubcommandRun } from './subcommands';

const io = {} as CliIo;

function table(calls: Array<[string, string[]]>): Record<string, SubcommandRun> {
  const record = (name: string): SubcommandRun => async (argv) => {
    calls.push([name, argv]);
    return ExitCode.ok;
  };
  return { list: record('list'), show: record('show') };
}

describe('runSubcommand', () => {
  it('runs the named subcommand with the arguments after its name', async () => {
    const calls: Array<[string, string[]]> = [];
    await runSubcommand(['show', 'abc', '--json'], io, table(calls), 'list');
    expect(calls).toEqual([['show', ['abc', '--json']]]);
  });

  it('runs the default with every argument when there is no name or the first is a flag', async () => {
    const calls: Array<[string, string[]]> = [];
    await runSubcommand([], io, table(calls), 'list');
    await runSubcommand(['--json'], io, table(calls), 'list');
    expect(calls).toEqual([['list', []], ['list', ['--json']]]);
  });

  it('refuses an unknown name, listing the known ones, and never reaches inherited keys', async () => {
    const calls: Array<[string, string[]]> = [];
    await expect(runSubcommand(['frob'], io, table(calls), 'list')).rejects.toThrow(new UsageError('unknown subcommand "frob" (one of list, show)'));
    await expect(runSubcommand(['toString'], io, table(calls), 'list')).rejects.toBeInstanceOf(UsageError);
    expect(calls).toEqual([]);
  });
});
