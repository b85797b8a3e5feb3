/** The `--json` events of `acp-workbench run` (docs/cli.md lists them). */
import type { Comparison } from '../../core/workspace/run-types';

export interface AgentRef {
  index: number;
  label: string;
}

export interface RunSummary {
  type: 'summary';
  agent: AgentRef;
  id: string | null;
  agentSessionId: string | null;
  stopReason: string | null;
  error: string | null;
  updates: number;
  toolCalls: number;
  permissionRequests: number;
  filesChanged: string[];
  firstUpdateMs: number | null;
  durationMs: number | null;
  usage: Record<string, unknown> | null;
  trace: string | null;
  /** With --isolate: `filesChanged` relative to the agent's workspace. */
  relPaths?: string[];
}

export type RunEvent =
  | { type: 'starting'; agent: AgentRef; command: string; args: string[] }
  | { type: 'initialized'; agent: AgentRef; protocolVersion: unknown; agentInfo: unknown; agentCapabilities: unknown; authMethods: unknown }
  | { type: 'session'; agent: AgentRef; id: string; agentSessionId: string | null; trace: string }
  | { type: 'update'; agent: AgentRef; update: unknown }
  | { type: 'permission'; agent: AgentRef; requestId: unknown; toolCallId: string | null; outcome: string; optionId: string | null; by: string }
  | { type: 'notice'; agent: AgentRef; message: string }
  | { type: 'cancel'; agent: AgentRef; by: string }
  | { type: 'error'; agent: AgentRef; message: string; stderrTail?: string[] }
  | { type: 'turn_end'; agent: AgentRef; stopReason: string }
  | RunSummary;

/**
 * The run-level and per-workspace events of `run --isolate` (a compare run). `run` comes first,
 * `workspace` (and `setup`) before an agent's `starting`, and `comparison` last of all.
 */
export type CompareEvent =
  | { type: 'run'; runId: string; isolation: string; root: string; base: string; branch: string | null; workspaces: string; warnings: string[] }
  | { type: 'workspace'; agent: AgentRef; path: string; cwd: string }
  | {
      type: 'setup';
      agent: AgentRef;
      command: string;
      exitCode: number | null;
      signal: string | null;
      timedOut: boolean;
      durationMs: number;
      output: string;
    }
  | ({ type: 'comparison' } & Omit<Comparison, 'type'>);
