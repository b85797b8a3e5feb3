import type { CliCommand } from '../command';
import { agentsCommand } from './agents';
import { notYet } from './not-yet';
import { traceCommand } from './trace';
import { webCommand } from './web';
import { runCommand } from './run';
import { runsCommand } from './runs';

/** Every command, in the order `--help` lists them. A later issue replaces its `notYet` entry. */
export const commands: CliCommand[] = [
  webCommand,
  agentsCommand,
  runCommand,
  notYet('check', 'Run a scripted conformance session against an agent and print the report.'),
  notYet('sessions', 'Browse, search, export, import, resume and fork recorded sessions.'),
  runsCommand,
  notYet('replay', 'Replay a recorded trace as an ACP agent on stdio.'),
  traceCommand,
];
