/**
 * Cancel while a permission request is pending, through the workbench core (the same
 * `startAgentSession` + `AgentSession` + `PermissionBroker` the CLI, the app and the web host use).
 * The CLI cannot hold a request open without a terminal (`--approve ask` unattended means "none"),
 * so this case plays the person who has not answered yet: policy `ask`, `interactive: true`, and
 * nobody answers the queue; once the request is waiting, `session.cancel()` — what the UI's Stop
 * button calls — must send `session/cancel` and answer the request `cancelled`.
 */
import type { PromptResponse } from '@agentclientprotocol/sdk/unstable';
import type { Transcript } from '../../../common/transcript/model';
import type { AgentSession } from '../../../main/core/sessions/agent-session';
import { PermissionBroker } from '../../../main/core/sessions/permission-broker';
import { AlwaysMemory, standardPermissionChain } from '../../../main/core/sessions/permission-policy';
import { PermissionQueue, type PendingPermission } from '../../../main/core/sessions/permission-queue';
import { startAgentSession } from '../../../main/core/sessions/start-session';
import type { AgentLaunch } from '../agents';

export interface CoreCancelResult {
  sessionId?: string;
  tracePath?: string;
  agentInfo?: unknown;
  pending?: PendingPermission;
  /** ms from the prompt until the request was waiting. */
  askedAfterMs?: number;
  /** How many requests session.cancel() answered (from the queue's own listener). */
  answeredCancelled: number;
  response?: PromptResponse;
  /** ms from session/cancel to the prompt's answer. */
  cancelToAnswerMs?: number;
  liveTranscript?: Transcript;
  error?: string;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms).unref())]);

export async function cancelDuringPermission(o: { launch: AgentLaunch; label: string; projectDir: string; dataDir: string; prompt: string }): Promise<CoreCancelResult> {
  const queue = new PermissionQueue();
  const memory = new AlwaysMemory();
  const broker = new PermissionBroker({ deciders: standardPermissionChain({ memory }), queue, memory });
  const result: CoreCancelResult = { answeredCancelled: 0 };
  let session: AgentSession | undefined;
  queue.onResolved((_p, answer) => {
    if (answer.outcome.outcome === 'cancelled') result.answeredCancelled++;
  });
  try {
    session = await startAgentSession({
      launch: { command: o.launch.command, args: o.launch.args, env: o.launch.env, cwd: o.projectDir, label: o.label, agentId: o.label },
      sessionCwd: o.projectDir,
      dataDir: o.dataDir,
      broker,
      policy: 'ask',
      interactive: true,
      host: 'real-agents-suite',
      startupTimeoutMs: 90_000,
      onInitialized: (init) => void (result.agentInfo = init.agentInfo ?? null),
    });
    result.sessionId = session.id;
    result.tracePath = session.connection.trace.path;
    const asked = new Promise<PendingPermission>((resolveAsked) => {
      const sub = queue.onAsked((p) => {
        sub.dispose();
        resolveAsked(p);
      });
    });
    const t0 = Date.now();
    const turn = session.prompt([{ type: 'text', text: o.prompt }]);
    turn.catch(() => undefined);
    const first = await withTimeout(Promise.race([asked, turn.then(() => null)]), 120_000, 'waiting for a permission request');
    if (!first) {
      result.error = 'the turn ended without asking permission';
      result.response = await turn;
      return result;
    }
    result.pending = first;
    result.askedAfterMs = Date.now() - t0;
    // A person would take a moment; the agent must keep waiting meanwhile.
    await new Promise((r) => setTimeout(r, 500));
    const t1 = Date.now();
    await session.cancel('user');
    result.response = await withTimeout(turn, 30_000, 'the cancelled turn');
    result.cancelToAnswerMs = Date.now() - t1;
  } catch (err) {
    result.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    if (session) {
      await session.connection.close();
      result.liveTranscript = session.transcript;
    }
  }
  return result;
}
