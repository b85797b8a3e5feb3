import type { CliCommand } from '../command';
import { agentsCommand } from './agents';
import { checkCommand } from './check';
import { replayCommand } from './replay';
import { traceCommand } from './trace';
import { webCommand } from './web';
import { runCommand } from './run';
import { runsCommand } from './runs';
import { sessionsCommand } from './sessions';

/** Every command, in the order `--help` lists them. */
export const commands: CliCommand[] = [
  webCommand,
  agentsCommand,
  runCommand,
  checkCommand,
  sessionsCommand,
  runsCommand,
  replayCommand,
  traceCommand,
];
