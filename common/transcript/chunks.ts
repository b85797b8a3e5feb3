/**
 * Message chunks (user, agent, thought). A chunk merges into the open message of its kind; a new
 * entry starts when the kind changes, when the `messageId` changes, or after anything that closed
 * the open message (a tool call, a plan, the turn's end...) — which is how replays without ids
 * keep their boundaries (acp-reference §6, §22.13). While our prompt is "just sent", user chunks are
 * the agent echoing it and are folded into the prompt's entry (§22.12).
 */
import { str, type JsonObject } from '../trace/json';
import type { ContentBlock } from './acp-types';
import type { MessageKind } from './model';
import { asContentBlock } from './normalize';
import type { Step } from './step';
import { appendUnknownUpdate } from './unknown';

export const CHUNK_KINDS: Record<string, MessageKind> = {
  user_message_chunk: 'user_message',
  agent_message_chunk: 'agent_message',
  agent_thought_chunk: 'thought',
};

export function onMessageChunk(step: Step, kind: MessageKind, update: JsonObject): void {
  const block = asContentBlock(update.content);
  if (!block) {
    appendUnknownUpdate(step, update);
    return;
  }
  const messageId = str(update, 'messageId');
  if (kind === 'user_message') {
    if (consumeEcho(step, messageId)) return;
  } else {
    step.disarmEcho();
  }

  const open = step.s.open;
  const idsConflict = open?.messageId !== undefined && messageId !== undefined && open.messageId !== messageId;
  if (open && open.kind === kind && !idsConflict) {
    if (messageId !== undefined && open.messageId === undefined) {
      step.s.open = { ...open, messageId };
      step.s.lastMessage = { ...step.s.lastMessage, [kind]: { entryId: open.entryId, messageId } };
      step.emit({ op: 'patch-entry', id: open.entryId, fields: { messageId } });
    }
    appendBlock(step, open.entryId, block);
    return;
  }

  // Same messageId as a message that something else closed (opencode's chunks after the answer).
  const last = messageId !== undefined ? step.s.lastMessage[kind] : undefined;
  if (last && last.messageId === messageId) {
    if (step.s.turn.answered && !step.s.loading) step.emit({ op: 'add-flag', id: last.entryId, flag: 'after-turn-end' });
    step.s.open = { kind, entryId: last.entryId, messageId: last.messageId };
    appendBlock(step, last.entryId, block);
    return;
  }

  if (kind === 'user_message') startHistoryTurn(step);
  const entryId = step.append({ kind, content: [block], ...(messageId !== undefined ? { messageId } : {}) });
  step.s.open = { kind, entryId, ...(messageId !== undefined ? { messageId } : {}) };
  if (messageId !== undefined) step.s.lastMessage = { ...step.s.lastMessage, [kind]: { entryId, messageId } };
}

function appendBlock(step: Step, entryId: string, block: ContentBlock): void {
  if (block.type === 'text') step.emit({ op: 'append-text', id: entryId, text: typeof block.text === 'string' ? block.text : '' });
  else step.emit({ op: 'append-block', id: entryId, block });
}

/** A user message that did not come from our prompt (replayed history) starts a turn of its own. */
function startHistoryTurn(step: Step): void {
  const turn = step.turn();
  turn.n += 1;
  turn.answered = false;
  turn.planEntryId = turn.usageEntryId = turn.commandsEntryId = turn.infoEntryId = undefined;
  turn.echo = undefined;
  step.setSession({ turn: turn.n });
}

/**
 * True when the chunk is the agent echoing our prompt back. Matched by `messageId` when the prompt
 * carried one, else by timing: until the agent's own output starts, a user chunk is the echo.
 */
function consumeEcho(step: Step, messageId: string | undefined): boolean {
  const echo = step.s.turn.echo;
  if (!echo) return false;
  const sameMessage = messageId !== undefined && echo.messageId === messageId;
  const idsConflict = messageId !== undefined && echo.messageId !== undefined && echo.messageId !== messageId;
  if (!sameMessage && (!echo.armed || idsConflict)) return false;
  if (!echo.flagged) step.emit({ op: 'add-flag', id: echo.entryId, flag: 'echoed-by-agent' });
  step.turn().echo = { ...echo, flagged: true, ...(messageId !== undefined && echo.messageId === undefined ? { messageId } : {}) };
  return true;
}
