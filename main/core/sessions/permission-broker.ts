import type { RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable';
import { runPermissionChain, type Decider, type PermissionInput } from './permission-chain';
import type { AlwaysMemory } from './permission-policy';
import type { PermissionQueue } from './permission-queue';

/**
 * `session/request_permission` end to end: the chain decides, or the request waits in the queue for
 * a person; a person's "always" answer is remembered for the agent.
 */

export interface PermissionDecision {
  sessionId: string;
  toolCallId: string;
  outcome: RequestPermissionOutcome;
  decidedBy: string;
  /** True when no person answered. */
  automatic: boolean;
  note?: string | undefined;
}

export interface PermissionBrokerOptions {
  deciders: readonly Decider[];
  queue: PermissionQueue;
  memory?: AlwaysMemory;
  /** Every decision, automatic or not, for the trace. */
  onDecided?: (decision: PermissionDecision) => void;
}

export class PermissionBroker {
  constructor(private readonly opts: PermissionBrokerOptions) {}

  /** Where requests wait for a person; UIs answer through it and cancels drain it. */
  get queue(): PermissionQueue {
    return this.opts.queue;
  }

  async request(
    input: PermissionInput,
    opts: { key?: string; signal?: AbortSignal } = {},
  ): Promise<{ response: RequestPermissionResponse; decision: PermissionDecision }> {
    const base = { sessionId: input.sessionId, toolCallId: input.toolCall.toolCallId };
    const chain = await runPermissionChain(this.opts.deciders, input);
    let decision: PermissionDecision;
    if (chain.type === 'decided') {
      decision = { ...base, outcome: chain.outcome, decidedBy: chain.by, automatic: true, note: chain.note };
    } else {
      const { answer } = this.opts.queue.ask(
        input.sessionId,
        { sessionId: input.sessionId, toolCall: input.toolCall, options: input.options },
        {
          key: opts.key,
          signal: opts.signal,
          context: { askedBecause: chain.by, reason: chain.reason, sensitivePaths: chain.sensitivePaths },
        },
      );
      const a = await answer;
      decision = { ...base, outcome: a.outcome, decidedBy: a.decidedBy, automatic: false };
      if (a.outcome.outcome === 'selected') {
        this.opts.memory?.recordAnswer(input.agentId, input.toolCall, input.options, a.outcome.optionId);
      }
    }
    try {
      this.opts.onDecided?.(decision);
    } catch {
      // The agent still gets its answer.
    }
    // Only `response` goes back to the agent; `decision` is ours.
    return { response: { outcome: decision.outcome }, decision };
  }

  /**
   * Straight to a person, past every decider (policy, remembered answers, QA rules): for what
   * only a person may allow, such as an agent reading a sensitive file. Nothing is remembered.
   */
  async askPerson(
    request: RequestPermissionRequest & { sessionId: string },
    opts: { key?: string; signal?: AbortSignal; context?: Record<string, unknown> } = {},
  ): Promise<PermissionDecision> {
    const { answer } = this.opts.queue.ask(request.sessionId, request, opts);
    const a = await answer;
    const decision: PermissionDecision = {
      sessionId: request.sessionId,
      toolCallId: request.toolCall.toolCallId,
      outcome: a.outcome,
      decidedBy: a.decidedBy,
      automatic: false,
    };
    try {
      this.opts.onDecided?.(decision);
    } catch {
      // The agent still gets its answer.
    }
    return decision;
  }
}
