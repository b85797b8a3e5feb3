/**
 * What the suite expects of each pinned agent where agents legitimately differ, and the checks
 * known to fail because of a documented deviation (docs/agents.md, "Conformance findings"). A
 * known failure is printed with its reason on every run; it does not fail the suite.
 */
import type { AgentId } from '../agents';

export interface AgentExpectations {
  /** How its todo list shows: ACP `plan` updates, or only a tool call (opencode, gemini). */
  plan: 'plan-update' | 'tool-call';
  /** `<case>:<check name>` → why it fails for this agent. */
  known: Record<string, string>;
}

const EXPECTATIONS: Record<AgentId, AgentExpectations> = {
  'claude-0.23': { plan: 'plan-update', known: {} },
  'claude-0.49': { plan: 'plan-update', known: {} },
  opencode: { plan: 'tool-call', known: {} },
  codex: {
    plan: 'plan-update',
    known: {
      'reject:turn ends end_turn':
        'codex-acp 0.16 offers only `approved` and `abort` for apply_patch; `abort` (its one reject option) aborts the whole turn: ' +
        'it answers session/prompt with stopReason "cancelled" though the client sent no session/cancel, and the edit tool call gets no final status.',
    },
  },
  gemini: { plan: 'tool-call', known: {} },
};

export function expectationsFor(id: string): AgentExpectations {
  return EXPECTATIONS[id as AgentId] ?? { plan: 'plan-update', known: {} };
}
