/**
 * What of a session is searchable, field by field, straight from trace records (no transcript is
 * built): user prompts, agent messages, thoughts, tool calls (titles, outputs, diffs, terminal
 * output) and file paths. Used to build the index and, on the few sessions a search shows, to cut
 * snippets — the same extraction both times, so a snippet shows why the session matched.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../../common/trace/json';
import type { TraceRecord } from '../../../common/trace/records';

export const SEARCH_FIELDS = ['prompt', 'agent', 'thought', 'tool', 'path'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const FIELD_BIT: Record<SearchField, number> = { prompt: 1, agent: 2, thought: 4, tool: 8, path: 16 };
/** Weight of a word's occurrence by where it is (a word in a prompt says more than one in a log). */
export const FIELD_WEIGHT: Record<SearchField, number> = { prompt: 4, agent: 2, thought: 1, tool: 1, path: 3 };

export function fieldsOfMask(mask: number): SearchField[] {
  return SEARCH_FIELDS.filter((f) => (mask & FIELD_BIT[f]) !== 0);
}

export interface TextSink {
  /** A piece of a streamed message: joined to the previous piece with the same `stream` key. */
  chunk(sessionId: string, field: SearchField, stream: string, text: string): void;
  /** A whole text. */
  text(sessionId: string, field: SearchField, text: string): void;
  /** Streams of the session end here (a tool call or a new prompt comes between messages). */
  breakStreams(sessionId: string): void;
}

/** Strings of a JSON value (tool inputs/outputs), depth-first, up to `limit` characters. */
function stringLeaves(value: JsonValue | undefined, out: string[], limit: { left: number }, depth = 0): void {
  if (value === undefined || value === null || limit.left <= 0 || depth > 8) return;
  if (typeof value === 'string') {
    out.push(value.length > limit.left ? value.slice(0, limit.left) : value);
    limit.left -= value.length;
  } else if (Array.isArray(value)) {
    for (const v of value) stringLeaves(v, out, limit, depth + 1);
  } else if (typeof value === 'object') {
    for (const v of Object.values(value)) stringLeaves(v, out, limit, depth + 1);
  }
}

function blockText(block: JsonValue | undefined, sessionId: string, sink: TextSink, textField: SearchField): void {
  if (!isJsonObject(block)) return;
  if (block.type === 'text' && typeof block.text === 'string') sink.text(sessionId, textField, block.text);
  else if (block.type === 'resource_link' && typeof block.uri === 'string') sink.text(sessionId, 'path', block.uri);
  else if (block.type === 'resource' && isJsonObject(block.resource)) {
    if (typeof block.resource.uri === 'string') sink.text(sessionId, 'path', block.resource.uri);
    if (typeof block.resource.text === 'string') sink.text(sessionId, textField, block.resource.text);
  }
}

function toolCallText(update: JsonObject, sessionId: string, sink: TextSink): void {
  if (typeof update.title === 'string') sink.text(sessionId, 'tool', update.title);
  let hasText = false;
  if (Array.isArray(update.content)) {
    for (const c of update.content) {
      if (!isJsonObject(c)) continue;
      if (c.type === 'content') {
        blockText(c.content, sessionId, sink, 'tool');
        hasText = true;
      } else if (c.type === 'diff') {
        if (typeof c.path === 'string') sink.text(sessionId, 'path', c.path);
        if (typeof c.newText === 'string') sink.text(sessionId, 'tool', c.newText);
        hasText = true;
      }
    }
  }
  if (Array.isArray(update.locations)) {
    for (const l of update.locations) if (isJsonObject(l) && typeof l.path === 'string') sink.text(sessionId, 'path', l.path);
  }
  const leaves: string[] = [];
  // Inputs say what the tool did (a command, a pattern); short ones only.
  stringLeaves(update.rawInput, leaves, { left: 2000 });
  // Outputs often repeat `content`; used when there is no content to read.
  if (!hasText) stringLeaves(update.rawOutput, leaves, { left: Number.POSITIVE_INFINITY });
  for (const s of leaves) sink.text(sessionId, 'tool', s);
}

function updateText(update: JsonObject, sessionId: string, sink: TextSink): void {
  const stream = (field: SearchField) => {
    const content = update.content;
    if (!isJsonObject(content)) return;
    const key = `${field}:${typeof update.messageId === 'string' ? update.messageId : ''}`;
    if (content.type === 'text' && typeof content.text === 'string') sink.chunk(sessionId, field, key, content.text);
    else blockText(content, sessionId, sink, field);
  };
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
      return stream('prompt');
    case 'agent_message_chunk':
      return stream('agent');
    case 'agent_thought_chunk':
      return stream('thought');
    case 'tool_call':
    case 'tool_call_update':
      sink.breakStreams(sessionId);
      return toolCallText(update, sessionId, sink);
    case 'plan':
      if (Array.isArray(update.entries)) {
        for (const e of update.entries) if (isJsonObject(e) && typeof e.content === 'string') sink.text(sessionId, 'agent', e.content);
      }
      return;
    default:
      return;
  }
}

/**
 * Feeds the searchable text of one record (already known to belong to `sessionId`) to `sink`.
 * `terminalsSeen` remembers terminals whose final output was taken: output records repeat the text
 * so far, and only the last one is worth indexing.
 */
export function extractSearchText(record: TraceRecord, sessionId: string, sink: TextSink, terminalsSeen: Set<string>): void {
  switch (record.kind) {
    case 'wire': {
      const msg = record.msg;
      const params = isJsonObject(msg.params) ? msg.params : undefined;
      if (record.dir === 'out' && msg.method === 'session/prompt') {
        sink.breakStreams(sessionId);
        if (Array.isArray(params?.prompt)) for (const b of params.prompt) blockText(b, sessionId, sink, 'prompt');
      } else if (record.dir === 'in' && msg.method === 'session/update' && isJsonObject(params?.update)) {
        updateText(params.update, sessionId, sink);
      }
      return;
    }
    case 'prompt':
      if (Array.isArray(record.prompt)) for (const b of record.prompt) blockText(b, sessionId, sink, 'prompt');
      return;
    case 'fs-write':
      sink.text(sessionId, 'path', record.path);
      return;
    case 'terminal': {
      if (record.action === 'created') {
        sink.breakStreams(sessionId);
        sink.text(sessionId, 'tool', [record.command ?? '', ...(record.args ?? [])].join(' '));
        return;
      }
      const final = record.action === 'exited' || record.action === 'killed' || record.action === 'released';
      if (final && typeof record.output === 'string' && !terminalsSeen.has(record.terminalId)) {
        terminalsSeen.add(record.terminalId);
        sink.text(sessionId, 'tool', record.output);
      }
      return;
    }
    case 'session':
      if (record.cwd) sink.text(sessionId, 'path', record.cwd);
      return;
    default:
      return;
  }
}
