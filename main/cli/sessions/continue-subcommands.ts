/**
 * `sessions resume` and `sessions fork` as the usage lists them. What they run (continue.ts) starts
 * an agent — the core's session code and the ACP SDK's schemas, ≈ 80 ms to evaluate — so it is
 * imported when one of them runs, not by every `sessions list` or `sessions search`.
 */
import type { ContinueKind } from '../../core/history/continue/continue-session';
import type { SessionsSubcommand } from './subcommand';

const COMMON = '--prompt TEXT|--prompt-file F [--env K=V]... [--capability NAME=on|off]... [--approve P] [--primer-max-chars N] [--json]';

const runContinue = async (kind: ContinueKind, argv: string[], io: Parameters<SessionsSubcommand['run']>[1]) =>
  (await import('./continue')).runContinue(kind, argv, io);

export const resumeSubcommand: SessionsSubcommand = {
  name: 'resume',
  synopsis: `ID ${COMMON}`,
  summary: 'continue a session live: session/resume, else session/load, else a new session primed with the transcript',
  run: (argv, io) => runContinue('resume', argv, io),
};

export const forkSubcommand: SessionsSubcommand = {
  name: 'fork',
  synopsis: `ID [--at N] [--agent-cmd "CMD ARGS" | --agent ID] ${COMMON}`,
  summary: 'branch a session from its end or before user message N (session/fork, else primed), onto any agent',
  run: (argv, io) => runContinue('fork', argv, io),
};
