/**
 * Every file change of a session, whatever way the agent made it: writes through
 * `fs/write_text_file` (transcript.fileChanges), and diffs of tool calls that completed (agents
 * such as Claude edit files with their own tools and only report a diff). A tool call's diff of a
 * path the same tool call also wrote through fs is not counted twice.
 */
import type { FileChange, ToolCallEntry, Transcript } from './model';

export const TOOL_CHANGE_PREFIX = 'tool:';

export function toolChangeId(toolCallId: string, path: string): string {
  return `${TOOL_CHANGE_PREFIX}${toolCallId}:${path}`;
}

export function allFileChanges(transcript: Pick<Transcript, 'ids' | 'entries' | 'fileChanges'>): FileChange[] {
  const written = new Set(transcript.fileChanges.map((c) => `${c.toolCallId ?? ''}\u0000${c.path}`));
  const fromTools: FileChange[] = [];
  for (const id of transcript.ids) {
    const entry = transcript.entries[id];
    if (entry?.kind !== 'tool_call' || (entry as ToolCallEntry).status !== 'completed') continue;
    const call = entry as ToolCallEntry;
    for (const c of call.content) {
      if (c.type !== 'diff' || typeof c.path !== 'string') continue;
      if (written.has(`${call.toolCallId}\u0000${c.path}`)) continue;
      fromTools.push({
        id: toolChangeId(call.toolCallId, c.path),
        path: c.path,
        oldText: c.oldText ?? null,
        newText: c.newText,
        t: call.t,
        turn: call.turn,
        toolCallId: call.toolCallId,
      });
    }
  }
  if (fromTools.length === 0) return [...transcript.fileChanges];
  return [...transcript.fileChanges, ...fromTools].sort((a, b) => a.t - b.t);
}
