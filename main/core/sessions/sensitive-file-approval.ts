/**
 * What a person is shown when an agent reads or writes a sensitive file through the fs methods
 * (main/core/acp/sensitive-file-gate.ts): a permission request of the workbench's own making — a
 * tool call "Read <path>" / "Write <path>" that says why it is asked (and, for a write, the diff),
 * with Allow once / Reject — recorded as `permission-asked` so the transcript shows it as a
 * permission card, and answered through the same queue as the agent's own permission requests.
 */
import type { PermissionOption, RequestPermissionOutcome, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import { sensitiveFileQuestion, verbOf, type SensitiveFileAccess, type SensitiveFileVerdict } from '../acp/sensitive-file-gate';
import { optionKindOf } from './permission-options';

export const SENSITIVE_FILE_OPTIONS: readonly PermissionOption[] = Object.freeze([
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
]);

/** The tool call the card hangs on: one per fs request, so two reads of `.env` are two cards. */
export function sensitiveFileToolCall(access: SensitiveFileAccess, requestId: string | number | null): ToolCallUpdate {
  const verb = verbOf(access.method);
  return {
    toolCallId: `sensitive-file:${String(requestId)}`,
    title: `${verb === 'read' ? 'Read' : 'Write'} ${access.path}`,
    kind: verb === 'read' ? 'read' : 'edit',
    locations: [{ path: access.path }],
    // No oldText: the card shows the file on disk against the new text.
    ...(access.newText !== undefined ? { content: [{ type: 'diff' as const, path: access.path, newText: access.newText }] } : {}),
  };
}

/** Why the workbench asks, as the card's context (permission-asked `context`). */
export function sensitiveFileContext(access: SensitiveFileAccess): ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text: sensitiveFileQuestion(access) } }];
}

/** A person's answer (or a cancel) as the gate's verdict. */
export function verdictOf(outcome: RequestPermissionOutcome, decidedBy: string): SensitiveFileVerdict {
  if (outcome.outcome === 'selected') {
    const kind = optionKindOf(SENSITIVE_FILE_OPTIONS, outcome.optionId);
    if (kind === 'allow_once' || kind === 'allow_always') return { allowed: true, decidedBy };
    return { allowed: false, decidedBy, refusal: 'rejected' };
  }
  return { allowed: false, decidedBy, refusal: 'cancelled' };
}
