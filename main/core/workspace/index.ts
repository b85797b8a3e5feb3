/** Compare runs: isolated workspaces, diffs against the base, promote (README.md). */
export { CompareRuns, directSessionHost, readPatches } from './compare-runs';
export type { CompareAgentSpec, CompareRunsOptions, CreateRunParams, RunSessionHost, RunSessionRequest } from './compare-runs';
export { buildComparison, comparisonMarkdown, divergentFiles } from './comparison';
export { agentFigures } from './figures';
export { promote, type PromoteChoice } from './promote';
export { RunError, RunStore, slug, type RunErrorCode } from './run-store';
export * from './run-types';
export { describeCommandResult, runShellCommand, type CommandResult } from './shell-command';
export type { SkippedPath } from './copy-folder';
export {
  agentStarted,
  captureAgent,
  discardRun,
  followUpStarted,
  prepareRun,
  relativeToWorkspace,
  setupAgent,
  uniqueLabels,
  verifyRun,
  type PrepareRunParams,
  type RunAgentInput,
  type TurnOutcome,
} from './workspaces';
