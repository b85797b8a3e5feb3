import type { CommandEntry } from '../command';

/**
 * Every command, in the order `--help` lists them. Each module is imported when its command runs
 * (esbuild keeps them in the one bundle but evaluates a module only when it is first imported).
 */
export const commands: CommandEntry[] = [
  {
    name: 'web',
    summary: 'Serve the UI to a browser on 127.0.0.1 (the way to use the workbench without Electron).',
    load: async () => (await import('./web')).webCommand,
  },
  {
    name: 'agents',
    summary: 'List, check and manage the agents the workbench knows (list, doctor, add, remove, import-registry, secrets).',
    load: async () => (await import('./agents')).agentsCommand,
  },
  {
    name: 'run',
    summary: 'Run a prompt against one or more agents and stream the transcript (--json for events).',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'check',
    summary: 'Run a scripted conformance session against an agent and print the report.',
    load: async () => (await import('./check')).checkCommand,
  },
  {
    name: 'sessions',
    summary: 'Browse, search, export, import, rename, tag and delete recorded sessions; resume, fork, tree.',
    load: async () => (await import('./sessions')).sessionsCommand,
  },
  {
    name: 'runs',
    summary: 'List, show, promote and discard compare runs.',
    load: async () => (await import('./runs')).runsCommand,
  },
  {
    name: 'replay',
    summary: 'Replay a recorded trace as an ACP agent on stdio.',
    load: async () => (await import('./replay')).replayCommand,
  },
  {
    name: 'trace',
    summary: 'Render a trace file as a transcript, or check it against the conformance rules.',
    load: async () => (await import('./trace')).traceCommand,
  },
];
