import type { CliCommand } from '../command';
import { agentsCommand } from './agents';
import { checkCommand } from './check';
import { notYet } from './not-yet';
import { traceCommand } from './trace';
import { webCommand } from './web';
import { runCommand } from './run';
import { replayCommand } from './replay';
import { runsCommand } from './runs';

/** Every command, in the order `--help` lists them. A later issue replaces its `notYet` entry. */
export const commands: CliCommand[] = [
  webCommand,
  agentsCommand,
  runCommand,
  checkCommand,
  notYet('sessions', 'Browse, search, export, import, resume and fork recorded sessions.'),
  runsCommand,
  replayCommand,
  traceCommand,
];
