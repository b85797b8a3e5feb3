/**
 * The one reducer: (state, trace record) → (next state, patches). Pure and synchronous; live
 * sessions and rebuilds from a trace call the same function, so what the user saw live is what
 * history shows. It expects one session's records (see trace/sessions.ts) plus the connection's
 * own (spawn, exit, stderr).
 */
import type { FsWriteRecord, TerminalRecord, TraceRecord } from '../trace/records';
import type { TerminalInfo } from './model';
import { onPermissionDecided, onPermissionRequest } from './permissions';
import { initialReducerState, rpcKey, STDERR_TAIL_LINES, type ReducerState } from './reducer-state';
import { Step, type ReduceResult } from './step';
import { onExit, onSpawn, requestCancel, startTurn } from './turns';
import { onWire } from './wire';

export type { ReduceResult } from './step';
export { initialReducerState, type ReducerState } from './reducer-state';

export function reduce(state: ReducerState, record: TraceRecord): ReduceResult {
  return reduceStep(new Step(state, record.t), record);
}

/**
 * For a caller that keeps only the newest state and never shows it to anyone: maps in `owned` (made
 * by earlier calls with the same set) are written in place. Same result as `reduce` otherwise.
 */
export function reduceOwned(state: ReducerState, record: TraceRecord, owned: WeakSet<object>): ReduceResult {
  return reduceStep(new Step(state, record.t, owned), record);
}

function reduceStep(step: Step, record: TraceRecord): ReduceResult {
  adoptIds(step, record);
  switch (record.kind) {
    case 'wire':
      onWire(step, record);
      break;
    case 'noise':
      // Stdout noise is for the inspector and conformance, not the conversation.
      break;
    case 'oversize': {
      const from = record.dir === 'in' ? 'from the agent' : 'to the agent';
      step.append({
        kind: 'notice',
        severity: 'warning',
        title: `A ${record.length}-byte message ${from} was too large to record.`,
        description: `Only its first bytes and its sha256 (${record.sha256}) are in the trace; what it said is missing here.`,
        source: 'workbench',
      });
      break;
    }
    case 'stderr': {
      const tail = step.s.stderrTail;
      step.s.stderrTail = [...tail.slice(Math.max(0, tail.length - STDERR_TAIL_LINES + 1)), record.text];
      break;
    }
    case 'spawn':
      onSpawn(step, record);
      break;
    case 'exit':
      onExit(step, record);
      break;
    case 'prompt':
      startTurn(step, { requestId: record.requestId, prompt: record.prompt, origin: record.origin });
      break;
    case 'permission-asked':
      onPermissionRequest(step, record.requestId, { toolCall: record.toolCall, toolCallId: record.toolCallId, options: record.options, context: record.context });
      break;
    case 'permission-decided':
      onPermissionDecided(step, record);
      break;
    case 'cancel':
      requestCancel(step);
      break;
    case 'fs-write':
      onFsWrite(step, record);
      break;
    case 'terminal':
      step.emit({ op: 'upsert-terminal', terminalId: record.terminalId, fields: terminalFields(record) });
      break;
    case 'session':
      step.setSession({
        sessionId: record.sessionId,
        opened: record.action,
        ...(record.agentSessionId !== undefined ? { agentSessionId: record.agentSessionId } : {}),
        ...(record.lineage ? { lineage: record.lineage } : {}),
      });
      break;
    case 'session-meta':
      step.setSession({
        ...(record.title !== undefined ? { userTitle: record.title } : {}),
        ...(record.tags ? { tags: record.tags } : {}),
      });
      break;
    case 'notice':
      step.append({ kind: 'notice', severity: record.severity, title: record.message, source: 'workbench' });
      break;
    default: {
      // A record kind from a newer format: nothing to do, and nothing to break.
      const unknown: never = record;
      void unknown;
    }
  }
  return step.finish();
}

/** The transcript learns its session's ids from the first record that carries them. */
function adoptIds(step: Step, record: TraceRecord): void {
  if (record.sessionId !== undefined && record.sessionId !== step.s.sessionId) {
    step.s.sessionId = record.sessionId;
    step.setSession({ sessionId: record.sessionId });
  }
  if (record.agentSessionId !== undefined && record.agentSessionId !== step.s.agentSessionId) {
    step.s.agentSessionId = record.agentSessionId;
    step.setSession({ agentSessionId: record.agentSessionId });
  }
}

function onFsWrite(step: Step, r: FsWriteRecord): void {
  const id = r.requestId !== undefined ? `req:${rpcKey(r.requestId)}` : `write:${step.s.nextWrite++}`;
  const known = step.s.fileChanges.has(id);
  const toolCallId = r.toolCallId ?? (known ? undefined : step.s.activeToolCallId);
  step.map('fileChanges').set(id, true);
  step.emit({
    op: 'upsert-file-change',
    change: {
      id,
      path: r.path,
      oldText: r.oldText,
      newText: r.newText,
      ...(known ? {} : { t: r.t, turn: step.s.turn.n }),
      ...(toolCallId !== undefined ? { toolCallId } : {}),
    },
  });
}

function terminalFields(r: TerminalRecord): Partial<TerminalInfo> {
  switch (r.action) {
    case 'created':
      return {
        status: 'running',
        ...(r.command !== undefined ? { command: r.command } : {}),
        ...(r.args ? { args: r.args } : {}),
        ...(r.cwd !== undefined ? { cwd: r.cwd } : {}),
      };
    case 'output':
      return { ...(r.output !== undefined ? { output: r.output } : {}), ...(r.truncated !== undefined ? { truncated: r.truncated } : {}) };
    case 'exited':
      return { status: 'exited', exitCode: r.exitCode ?? null, signal: r.signal ?? null };
    case 'killed':
      return { status: 'killed' };
    case 'released':
      return { released: true };
    default:
      return {};
  }
}

/** A fresh state, for callers that do not want to import reducer-state. */
export function createReducerState(): ReducerState {
  return initialReducerState();
}
