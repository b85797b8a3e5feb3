import { parseArgs, type ParseArgsConfig } from 'node:util';
import { processPaths, type WorkbenchPaths } from '../core/paths';
import { UsageError } from './exit-codes';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags every command takes (docs/cli.md, "Common flags"). */
export const COMMON_OPTIONS = {
  'data-dir': { type: 'string' },
  'config-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export interface ParsedArgs<O extends Options> {
  values: { [K in keyof (O & typeof COMMON_OPTIONS)]?: (O & typeof COMMON_OPTIONS)[K] extends { type: 'boolean' }
    ? (O & typeof COMMON_OPTIONS)[K] extends { multiple: true } ? boolean[] : boolean
    : (O & typeof COMMON_OPTIONS)[K] extends { multiple: true } ? string[] : string };
  positionals: string[];
  paths: WorkbenchPaths;
}

/** Parse a command's arguments strictly; unknown flags are usage errors that name the flag. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, env: NodeJS.ProcessEnv = process.env): ParsedArgs<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const values = parsed.values as Record<string, unknown>;
  const paths = processPaths(
    { dataDir: values['data-dir'] as string | undefined, configDir: values['config-dir'] as string | undefined },
    env,
  );
  return { values: values as ParsedArgs<O>['values'], positionals: parsed.positionals, paths };
}
