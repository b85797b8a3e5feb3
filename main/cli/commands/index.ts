import type { CliCommand } from '../command';
import { notYet } from './not-yet';
import { webCommand } from './web';

/** Every command, in the order `--help` lists them. A later issue replaces its `notYet` entry. */
export const commands: CliCommand[] = [
  webCommand,
  notYet('agents', 'List, check and manage the agents the workbench knows (list, doctor, add, remove, import-registry).'),
  notYet('run', 'Run a prompt against one or more agents and stream the transcript (--json for events).'),
  notYet('check', 'Run a scripted conformance session against an agent and print the report.'),
  notYet('sessions', 'Browse, search, export, import, resume and fork recorded sessions.'),
  notYet('runs', 'List, show, promote and discard compare runs.'),
  notYet('replay', 'Replay a recorded trace as an ACP agent on stdio.'),
  notYet('trace', 'Render a trace file as a readable transcript or JSON entries.'),
];
