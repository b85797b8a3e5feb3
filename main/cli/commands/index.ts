/**
 * Every command, in the order `--help` lists them: its name and one line for `--help`, and how to
 * load it. A command's module (and what only it imports: the web host, the history index, the
 * conformance engine...) is loaded when the command runs, so `run` does not pay for the others at
 * start-up (esbuild turns each `import()` into a lazy init inside the one bundle).
 */
import type { CliCommand } from '../command';

export interface CommandEntry {
  name: string;
  /** One line for `acp-workbench --help`. */
  summary: string;
  /** Set while a later issue has not built the command yet: it is listed but exits 2. */
  notAvailableYet?: boolean;
  load(): Promise<CliCommand>;
}

export const commands: CommandEntry[] = [
  {
    name: 'web',
    summary: 'Serve the UI to a browser on 127.0.0.1 (the way to use the workbench without Electron).',
    load: () => import('./web').then((m) => m.webCommand),
  },
  {
    name: 'agents',
    summary: 'List, check and manage the agents the workbench knows (list, doctor, add, remove, import-registry, secrets).',
    load: () => import('./agents').then((m) => m.agentsCommand),
  },
  {
    name: 'run',
    summary: 'Run a prompt against one or more agents and stream the transcript (--json for events).',
    load: () => import('./run').then((m) => m.runCommand),
  },
  {
    name: 'check',
    summary: 'Run a scripted conformance session against an agent and print the report.',
    load: () => import('./check').then((m) => m.checkCommand),
  },
  {
    name: 'sessions',
    summary: 'Browse, search, export, import, rename, tag and delete recorded sessions; resume, fork, tree.',
    load: () => import('./sessions').then((m) => m.sessionsCommand),
  },
  {
    name: 'runs',
    summary: 'List, show, promote and discard compare runs.',
    load: () => import('./runs').then((m) => m.runsCommand),
  },
  {
    name: 'replay',
    summary: 'Replay a recorded trace as an ACP agent on stdio.',
    load: () => import('./replay').then((m) => m.replayCommand),
  },
  {
    name: 'trace',
    summary: 'Render a trace file as a transcript, or check it against the conformance rules.',
    load: () => import('./trace').then((m) => m.traceCommand),
  },
];
