/**
 * The QA rules of one connection (one session in the app): fault injection and manual answers
 * for the agent's requests. Two entry points, both first in line:
 *  - `intercept`, called by the client handlers (client-handlers.ts) before the normal handler of
 *    fs/*, terminal/*, elicitation/create and unknown methods;
 *  - `decidePermission`, the broker's QA slot (permission-policy.ts `qaRulesDecider`) for
 *    session/request_permission, so a manual or denied permission is recorded like any decision.
 */
import type { PermissionOption } from '@agentclientprotocol/sdk/unstable';
import type { FaultRule, ManualRequestView } from '../../../../common/api/qa-types';
import type { JsonRpcId } from '../../../../common/trace/records';
import { sliceLines } from '../../acp/fs-access';
import type { ClientRequestInterceptor } from '../../acp/client-handlers';
import { requestError } from '../../acp/sdk-runtime';
import { decided, PASS, type DeciderResult, type PermissionInput } from '../../sessions/permission-chain';
import { rejectOutcome } from '../../sessions/permission-options';
import { checkRules, findRule } from './fault-rules';
import { ManualQueue, type ManualAnswer } from './manual-queue';

const PERMISSION = 'session/request_permission';

/** What a denied request that is neither a permission nor an elicitation is answered. */
export const DENIED_CODE = -32000;

type Json = Record<string, unknown>;

/** A permission request as the client handler saw it: the decider needs its id and signal. */
interface SeenPermission {
  requestId: JsonRpcId;
  signal: AbortSignal;
  params: unknown;
}

export class FaultSet implements ClientRequestInterceptor {
  readonly manual = new ManualQueue();
  private rules: FaultRule[] = [];
  private nextRule = 1;
  private readonly seenPermissions = new Map<string, SeenPermission>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly sessionId: string) {}

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Replace the rules (checked; throws FaultRuleError). Rules apply from the next request. */
  setRules(inputs: unknown): FaultRule[] {
    this.rules = checkRules(inputs, () => `r${this.nextRule++}`);
    return this.list();
  }

  pending(): ManualRequestView[] {
    return this.manual.list();
  }

  answer(key: string, answer: ManualAnswer): boolean {
    return this.manual.answer(key, answer);
  }

  intercept(method: string, params: unknown, request: { requestId: JsonRpcId; signal: AbortSignal; implemented: boolean }): Promise<{ answer: unknown } | undefined> | undefined {
    if (method === PERMISSION) {
      // Decided in the broker's QA slot; it needs the request's id and signal, which only this call sees.
      if (this.rules.length) this.rememberPermission(params, request);
      return undefined;
    }
    if (!this.rules.length) return undefined;
    const rule = findRule(this.rules, method, params, request.implemented);
    if (!rule) return undefined;
    return this.apply(rule, method, params, request);
  }

  /** The broker's QA slot: session/request_permission. */
  async decidePermission(input: PermissionInput): Promise<DeciderResult> {
    const seen = this.seenPermissions.get(input.toolCall.toolCallId);
    this.seenPermissions.delete(input.toolCall.toolCallId);
    const params = seen?.params ?? { toolCall: input.toolCall, options: input.options };
    const rule = findRule(this.rules, PERMISSION, params, true);
    if (!rule) return PASS;
    const action = rule.action;
    switch (action.type) {
      case 'deny':
        return decided(rejectOutcome(input.options), 'qa:deny');
      case 'error':
        throw requestError(action.code, action.message, action.data);
      case 'delay':
        await this.sleep(action.ms);
        return PASS;
      case 'content':
        return PASS;
      case 'manual': {
        const result = (await this.manual.hold({
          sessionId: this.sessionId,
          method: PERMISSION,
          requestId: seen?.requestId ?? null,
          params,
          signal: seen?.signal,
          example: permissionExample(input.options),
        })) as Json | null;
        const outcome = (result && typeof result === 'object' ? result.outcome : undefined) as DecidedOutcome | undefined;
        // Whatever the tester typed goes to the agent as the outcome, malformed on purpose or not.
        return decided(outcome ?? ({ outcome: 'cancelled' } as DecidedOutcome), 'qa:manual');
      }
    }
  }

  /** A permission held for a manual answer, answered from the transcript's permission card instead. */
  answerHeldPermission(requestId: JsonRpcId, outcome: unknown): boolean {
    const held = this.manual.list().find((p) => p.method === PERMISSION && p.requestId === requestId);
    return held ? this.manual.answer(held.key, { result: { outcome } }) : false;
  }

  /** After session/cancel: permissions held for a manual answer are answered `cancelled`, as the protocol asks. */
  cancelPermissions(): number {
    return this.manual.answerAll(PERMISSION, { result: { outcome: { outcome: 'cancelled' } } });
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.manual.dispose();
    this.seenPermissions.clear();
  }

  private async apply(rule: FaultRule, method: string, params: unknown, request: { requestId: JsonRpcId; signal: AbortSignal }): Promise<{ answer: unknown } | undefined> {
    const action = rule.action;
    switch (action.type) {
      case 'delay':
        await this.sleep(action.ms);
        return undefined;
      case 'error':
        throw requestError(action.code, action.message, action.data);
      case 'deny':
        if (method === 'elicitation/create') return { answer: { action: 'decline' } };
        throw requestError(DENIED_CODE, `${method} denied by a QA rule`, { rule: rule.id });
      case 'content': {
        if (method !== 'fs/read_text_file') return undefined;
        const p = (params ?? {}) as Json;
        const line = typeof p.line === 'number' ? p.line : undefined;
        const limit = typeof p.limit === 'number' ? p.limit : undefined;
        return { answer: { content: sliceLines(action.text, line, limit) } };
      }
      case 'manual':
        return {
          answer: await this.manual.hold({ sessionId: this.sessionId, method, requestId: request.requestId, params, signal: request.signal, example: resultExample(method) }),
        };
    }
  }

  private rememberPermission(params: unknown, request: { requestId: JsonRpcId; signal: AbortSignal }): void {
    const toolCallId = ((params as Json | null)?.toolCall as Json | undefined)?.toolCallId;
    if (typeof toolCallId !== 'string') return;
    this.seenPermissions.set(toolCallId, { requestId: request.requestId, signal: request.signal, params });
    // Bounded: a permission the broker never asks about (no session) must not pile up.
    if (this.seenPermissions.size > 100) this.seenPermissions.delete(this.seenPermissions.keys().next().value!);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

type DecidedOutcome = Parameters<typeof decided>[0];

function permissionExample(options: readonly PermissionOption[]): unknown {
  const first = options[0];
  return { outcome: first ? { outcome: 'selected', optionId: first.optionId } : { outcome: 'cancelled' } };
}

/** A result of the right shape for each client method (acp-reference §5.2). */
export function resultExample(method: string): unknown {
  switch (method) {
    case 'fs/read_text_file':
      return { content: '' };
    case 'fs/write_text_file':
      return {};
    case 'terminal/create':
      return { terminalId: 'term-manual-1' };
    case 'terminal/output':
      return { output: '', truncated: false, exitStatus: { exitCode: 0, signal: null } };
    case 'terminal/wait_for_exit':
      return { exitCode: 0, signal: null };
    case 'terminal/kill':
    case 'terminal/release':
      return {};
    case 'elicitation/create':
      return { action: 'accept', content: {} };
    default:
      return {};
  }
}
