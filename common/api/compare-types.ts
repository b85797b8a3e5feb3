/**
 * Types of the compare-run requests and events of the API contract (issue #7): one prompt to 2–6
 * agents, each in its own workspace; the comparison of what they did; promote; discard.
 *
 * The shapes mirror what main/core/workspace stores (run-types.ts) — the handlers return the
 * core's objects as these types, so the compiler catches any drift between the two.
 */
import type { ContentBlock } from '../transcript/acp-types';
import type { AgentChoice } from './session-api-types';

export type RunPolicy = 'ask' | 'all' | 'reads' | 'none';
export type RunStatusView = 'preparing' | 'running' | 'ready' | 'promoted' | 'discarded' | 'failed';
export type RunAgentStatusView = 'pending' | 'setup' | 'running' | 'done' | 'failed';

/** One agent of a new run; the same agent twice (other mode/model/config) counts as two. */
export interface RunAgentParams {
  agent: AgentChoice;
  /** Shown in panes and the comparison; repeated labels become `label#2`. */
  label?: string;
  mode?: string;
  model?: string;
  /** Config options to set before the prompt: [configId, value]. */
  config?: Array<[string, string]>;
}

/**
 * How far the creation of a compare run has got (event `run/create-progress`, for the dialog that
 * started it: `startId`). Steps in order: `snapshot` — the project's working tree recorded (a git
 * project); `workspace` — agent `agent`'s workspace made, of `of` (a worktree, or a copy: `files`
 * and `bytes` copied so far); `capture` — the copy recorded as the comparison's base; `setup` — the
 * setup command run in the workspaces; `start` — the agents starting (`started` of `of` ready).
 */
export interface RunCreateProgress {
  startId: string;
  step: 'snapshot' | 'workspace' | 'capture' | 'setup' | 'start';
  of: number;
  /** 1-based. */
  agent?: number;
  files?: number;
  bytes?: number;
  started?: number;
}

export interface CreateRunParams {
  /** The project folder (absolute). */
  cwd: string;
  agents: RunAgentParams[];
  prompt: ContentBlock[];
  policy: RunPolicy;
  /** Run in every workspace before its agent starts (e.g. `npm ci`). */
  setupCommand?: string;
  /** Run in every workspace when the agents are done (e.g. the project's tests). */
  verifyCommand?: string;
  /** A name the caller gives this creation, so that `runs/abort-create` can stop it while it is under way. */
  startId?: string;
}

/** What a recorded run was made from, for "Run again" (`runs/recipe`): its `runs/create` params as near as the record allows. */
export interface RunRecipeView {
  params: CreateRunParams;
  /** What the record could not give back (secret arguments, environment variables, agents gone from the catalog, follow-ups). */
  notes: string[];
}

/** A setup or verification command's outcome in one workspace. */
export interface CommandResultView {
  command: string;
  /** null when it was killed (time limit) or could not be started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The tail of its output (stdout and stderr interleaved; the last 64 KiB). */
  output: string;
  truncated: boolean;
  /** Why it could not be started. */
  error?: string;
}

/** One file an agent changed, compared with its base. */
export interface FileChangeStatView {
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  /** A added, M modified, D deleted, T type changed (file ↔ link). */
  status: 'A' | 'M' | 'D' | 'T';
  /** Lines added / removed; null for binary files. */
  added: number | null;
  removed: number | null;
  binary: boolean;
  /** Object id of the content before / after (null when absent): equal ids mean equal contents. */
  oldId: string | null;
  newId: string | null;
  /** Git file mode after the change (`100644`, `100755`, `120000` for a link); null when deleted. */
  newMode: string | null;
}

export interface RunAgentSummary {
  index: number;
  label: string;
  agentId: string;
  status: RunAgentStatusView;
  error: string | null;
  /** Its workbench session (a live pane while the run is live). */
  sessionId: string | null;
  workspace: string;
  cwd: string;
  filesChanged: number;
  linesAdded: number;
  linesRemoved: number;
}

/** A run as the runs list and the run strip show it. */
export interface RunSummary {
  runId: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatusView;
  /** The project folder. */
  project: string;
  isolation: 'worktree' | 'copy';
  /** The first prompt's text. */
  prompt: string;
  policy: string;
  verifyCommand: string | null;
  agents: RunAgentSummary[];
  /** Its workspaces are still on disk. */
  workspaces: boolean;
  /** Its agents' sessions are live in this core (follow-ups possible). */
  live: boolean;
  promoted: { at: string; paths: string[]; picks: PickedFileView[] } | null;
  discardedAt: string | null;
  warnings: string[];
  error: string | null;
}

/** Per-session figures of a run's agent (main/core/workspace/figures.ts computes them from the trace). */
export interface AgentFiguresView {
  stopReason: string | null;
  turns: number;
  updates: number;
  /** From sending the first prompt to the first update after it. */
  firstUpdateMs: number | null;
  /** Sum of the turns' durations (prompt sent → answer). */
  durationMs: number | null;
  /** Time permission requests waited for an answer (overlapping requests counted once). */
  permissionWaitMs: number;
  toolCalls: number;
  toolCallsByKind: Record<string, number>;
  permissionRequests: number;
  /** Tokens / cost as the agent reported them (usage_update, prompt answer), when it did. */
  usage: Record<string, unknown> | null;
  /** The text of the agent's last message (its own account of what it did), cut at 4,000 characters; absent in runs recorded before it was kept. */
  lastAnswer?: string | null;
}

export interface ComparedAgentView extends AgentFiguresView {
  index: number;
  /** `durationMs` less `permissionWaitMs`: how long the agent itself took (null before a turn ended). */
  workingMs: number | null;
  label: string;
  agentId: string;
  status: RunAgentStatusView;
  error: string | null;
  sessionId: string | null;
  trace: string | null;
  workspace: string;
  cwd: string;
  filesChanged: FileChangeStatView[];
  linesAdded: number;
  linesRemoved: number;
  setup: CommandResultView | null;
  verify: CommandResultView | null;
  patchFile: string | null;
  /** The agent's patch, when asked for (`withPatches`). */
  patch?: string;
  /** The patch was cut at the size limit of one message. */
  patchTruncated?: boolean;
}

/** A path several agents changed, to different results. */
export interface DivergentFileView {
  path: string;
  agents: Array<{ index: number; status: FileChangeStatView['status']; newId: string | null }>;
}

export interface ComparisonView {
  type: 'comparison';
  runId: string;
  status: RunStatusView;
  createdAt: string;
  source: { cwd: string; root: string; subdir: string; isolation: 'worktree' | 'copy'; head: string | null; branch: string | null };
  base: string;
  prompt: unknown[];
  verifyCommand: string | null;
  agents: ComparedAgentView[];
  divergentFiles: DivergentFileView[];
}

export interface RunIdParams {
  runId: string;
}

export interface ComparisonParams extends RunIdParams {
  /** Include each agent's patch (cut at PATCH_LIMIT characters). */
  withPatches?: boolean;
}

/** Texts of one path, before and after, per agent that changed it: for the side-by-side diffs. */
export interface RunFileTextsParams extends RunIdParams {
  path: string;
}

export interface RunFileTextsView {
  path: string;
  agents: Array<{
    index: number;
    label: string;
    status: FileChangeStatView['status'];
    /** null: the file did not exist on that side. */
    oldText: string | null;
    newText: string | null;
    binary: boolean;
    /** A side was larger than FILE_TEXT_LIMIT and is not sent. */
    tooLarge: boolean;
  }>;
}

export interface FollowUpParams extends RunIdParams {
  prompt: ContentBlock[];
  /** Agent indexes; all agents when absent. */
  indexes?: number[];
}

export interface VerifyParams extends RunIdParams {
  /** Another command than the run's (it becomes the run's). */
  command?: string;
}

export interface PickedFileView {
  agentIndex: number;
  /** Relative to the workspace root. */
  path: string;
}

export type PromoteParams = (RunIdParams & { agentIndex: number }) | (RunIdParams & { files: PickedFileView[] });

export interface PromoteResultView {
  applied: boolean;
  /** Paths written in the user's folder. */
  paths: string[];
  /** When refused (nothing written): the paths that do not apply, each with why. */
  conflicts: Array<{ path: string; reason: string }>;
}

export interface ExportParams extends RunIdParams {
  format: 'md' | 'json';
}

export interface ExportResult {
  fileName: string;
  mimeType: string;
  text: string;
}

/** A patch longer than this is cut in `runs/comparison` (the export has it whole). */
export const PATCH_LIMIT = 512 * 1024;
/** A file text longer than this is not sent for the diff views. */
export const FILE_TEXT_LIMIT = 2 * 1024 * 1024;
