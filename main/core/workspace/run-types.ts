/**
 * What a compare run is, as stored in `<data>/runs/<runId>/run.json` (docs/data.md) and as the UI
 * and the CLI see it. Types only, no Node: the UI can share them.
 */
import type { AgentFiguresView, FileChangeStatView } from '../../../common/api/compare-types';
import type { LaunchEnvVar } from '../../../common/trace/records';
import type { CommandResult } from './shell-command';
import type { SkippedPath } from './copy-folder';

export const RUN_FORMAT_VERSION = 1;
export const MAX_RUN_AGENTS = 6;

/** `worktree`: a git worktree of a snapshot commit; `copy`: a copy of a folder that is not in git. */
export type Isolation = 'worktree' | 'copy';

/**
 * `preparing` (workspaces being made), `running` (turns under way), `ready` (every turn ended),
 * `promoted` (changes applied to the user's folder), `discarded` (workspaces removed), `failed`
 * (the workspaces could not be made).
 */
export type RunStatus = 'preparing' | 'running' | 'ready' | 'promoted' | 'discarded' | 'failed';

export type RunAgentStatus = 'pending' | 'setup' | 'running' | 'done' | 'failed';

export interface RunSource {
  /** The project folder the user chose. */
  cwd: string;
  /** The repository's top folder (worktree) or the project folder itself (copy). */
  root: string;
  /** The project folder relative to `root` (`/`-separated, `''` for the root). */
  subdir: string;
  isolation: Isolation;
  /** HEAD and branch of the user's repository when the snapshot was made (worktree only). */
  head: string | null;
  branch: string | null;
}

/** How the agent was launched, without secrets: only the variables the run added, secret-looking ones by name only. */
export interface RunLaunchInfo {
  command: string;
  args: string[];
  env: LaunchEnvVar[];
}

/** One file an agent changed, compared with its base (the shape a window is sent as it is). */
export type FileChangeStat = FileChangeStatView;

/** Per-session figures (figures.ts computes them from the trace records); the API's own type. */
export type AgentFigures = AgentFiguresView;

export interface RunAgentRecord {
  index: number;
  /** Unique within the run (`label#2` when repeated). */
  label: string;
  /** Catalog id, or the command of an ad-hoc agent. */
  agentId: string;
  launch: RunLaunchInfo | null;
  mode?: string;
  model?: string;
  config?: Array<[string, string]>;
  /** The workspace folder (worktree root or copy). */
  workspace: string;
  /** The agent's session cwd inside it. */
  cwd: string;
  /** The commit its changes are compared with: the run's base, or the state after the setup command. */
  base: string;
  /** The last captured state of its workspace; null before the first capture. */
  result: string | null;
  status: RunAgentStatus;
  error: string | null;
  sessionId: string | null;
  agentSessionId: string | null;
  trace: string | null;
  setup: CommandResult | null;
  verify: CommandResult | null;
  figures: AgentFigures | null;
  files: FileChangeStat[];
  /** The patch (`git diff --binary` against `base`), stored beside run.json so it outlives the workspace. */
  patchFile: string | null;
}

export interface PickedFile {
  agentIndex: number;
  /** Relative to the workspace root. */
  path: string;
}

export interface RunPrompt {
  /** When it was sent, ISO 8601. */
  at: string;
  /** ACP content blocks (text, resources, images). */
  prompt: unknown[];
  agents: number[];
}

export interface RunRecord {
  version: typeof RUN_FORMAT_VERSION;
  id: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  source: RunSource;
  /** The snapshot commit (worktree) or the commit of the first copy (copy) every workspace starts from. */
  base: string;
  /** Private git dir holding the copies' objects (copy only). */
  gitDir: string | null;
  /** The first prompt and every follow-up. */
  prompts: RunPrompt[];
  policy: string;
  setupCommand: string | null;
  verifyCommand: string | null;
  /** Folders linked into every workspace, relative to `source.root`. */
  links: string[];
  skipped: SkippedPath[];
  warnings: string[];
  agents: RunAgentRecord[];
  promoted: { at: string; picks: PickedFile[]; paths: string[] } | null;
  discardedAt: string | null;
  error: string | null;
}

export interface ComparedAgent extends AgentFigures {
  index: number;
  /** `durationMs` less `permissionWaitMs` (comparison.ts `workingMs`). */
  workingMs: number | null;
  label: string;
  agentId: string;
  status: RunAgentStatus;
  error: string | null;
  sessionId: string | null;
  trace: string | null;
  workspace: string;
  cwd: string;
  filesChanged: FileChangeStat[];
  linesAdded: number;
  linesRemoved: number;
  setup: CommandResult | null;
  verify: CommandResult | null;
  patchFile: string | null;
  /** Only in exports that ask for it. */
  patch?: string;
}

/** A path several agents changed, to different results. */
export interface DivergentFile {
  path: string;
  agents: Array<{ index: number; status: FileChangeStat['status']; newId: string | null }>;
}

export interface Comparison {
  type: 'comparison';
  runId: string;
  status: RunStatus;
  createdAt: string;
  source: RunSource;
  base: string;
  prompt: unknown[];
  verifyCommand: string | null;
  agents: ComparedAgent[];
  divergentFiles: DivergentFile[];
}

export interface PromoteResult {
  applied: boolean;
  /** Paths (relative to the workspace root) written in the user's folder. */
  paths: string[];
  /** When refused: the paths that do not apply, each with why. */
  conflicts: Array<{ path: string; reason: string }>;
}
