import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import { rejectOutcome } from './permission-options';

/**
 * The permission broker's chain: an ordered list of deciders, each answering the request, sending
 * it to a person, or passing it on. The first non-pass result wins. See permission-policy.ts for the
 * standard deciders and their order.
 */

/** `acp-workbench run --approve <policy>`, or a session's setting. */
export type ApprovePolicy = 'ask' | 'all' | 'reads' | 'none';

export interface PermissionInput {
  sessionId: string;
  /** Which agent (catalog id): "always" answers are remembered per agent. */
  agentId: string;
  /**
   * The request's toolCall laid over what the transcript already knows about that tool call: the
   * request often carries only the id and a title, and the kind matters for the policy.
   */
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  /** Whether a person can answer now (false in `run` without a terminal, CI, ...). */
  interactive: boolean;
  policy?: ApprovePolicy | undefined;
  /** Session cwd, to resolve relative paths in tool inputs. */
  cwd?: string | undefined;
}

export type Decided = {
  type: 'decided';
  outcome: RequestPermissionOutcome;
  /** Who decided, for the trace: 'qa', 'sensitive-path', 'policy:reads', 'remembered', ... */
  by: string;
  note?: string;
};

export type AskPerson = {
  type: 'ask';
  by: string;
  /** Why a person must answer, shown with the request. */
  reason?: string;
  /** Sensitive files the tool call touches, for the UI to highlight. */
  sensitivePaths?: string[];
};

export type DeciderResult = Decided | AskPerson | { type: 'pass' };
export type ChainDecision = Decided | AskPerson;

export interface Decider {
  name: string;
  decide(input: PermissionInput): DeciderResult | Promise<DeciderResult>;
}

export const PASS: DeciderResult = Object.freeze({ type: 'pass' });

export function decided(outcome: RequestPermissionOutcome, by: string, note?: string): Decided {
  return note === undefined ? { type: 'decided', outcome, by } : { type: 'decided', outcome, by, note };
}

/**
 * Run the chain. When it ends in "ask a person" but nobody can answer, the request is rejected:
 * an unattended run must never hang on a question, nor say yes by default.
 */
export async function runPermissionChain(deciders: readonly Decider[], input: PermissionInput): Promise<ChainDecision> {
  let result: ChainDecision = { type: 'ask', by: 'default' };
  for (const decider of deciders) {
    const r = await decider.decide(input);
    if (r.type !== 'pass') {
      result = r;
      break;
    }
  }
  if (result.type === 'ask' && !input.interactive) {
    return decided(rejectOutcome(input.options), 'non-interactive', result.reason ?? 'nobody can answer this request');
  }
  return result;
}
