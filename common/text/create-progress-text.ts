/**
 * What is said while a compare run is being created (the New compare run dialog, from
 * `run/create-progress`; `run --isolate` on a terminal): the step under way, in words, with a copy's
 * running count — making copies of a large folder for three agents can take minutes, and "Making
 * the workspaces…" alone does not say whether it moves.
 */
import type { RunCreateProgress } from '../api/compare-types';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function createProgressText(p: Omit<RunCreateProgress, 'startId'>, labels: readonly string[]): string {
  const agent = p.agent !== undefined ? `agent ${p.agent} of ${p.of}${labels[p.agent - 1] ? ` (${labels[p.agent - 1]})` : ''}` : '';
  switch (p.step) {
    case 'snapshot':
      return 'Recording the project’s working tree…';
    case 'workspace':
      return p.files === undefined
        ? `Making the workspace of ${agent}…`
        : `Copying the project for ${agent}: ${p.files.toLocaleString('en-US')} file${p.files === 1 ? '' : 's'}, ${size(p.bytes ?? 0)}…`;
    case 'capture':
      return 'Recording the copy as the comparison’s starting point…';
    case 'setup':
      return 'Running the setup command in the workspaces…';
    case 'start':
      return `Starting the agents: ${p.started ?? 0} of ${p.of} ready…`;
    default:
      return 'Making the workspaces and starting the agents…';
  }
}
