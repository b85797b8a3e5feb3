/**
 * What "find in the transcript" looks through in one entry: the words a reader sees in its row —
 * messages, thoughts, a tool call's title, paths, text output and diff texts, plan items, notices
 * and errors. Not the JSON around them (ids, `_meta`, raw input), which the protocol inspector
 * searches instead.
 */
import type { ContentBlock, ToolCallContent } from './acp-types';
import type { Entry } from './model';

export function entryFindText(e: Entry): string {
  switch (e.kind) {
    case 'user_message':
    case 'agent_message':
    case 'thought':
      return blocksText(e.content);
    case 'tool_call':
      return [e.title, ...e.locations.map((l) => l.path), ...e.content.map(toolContentText)].join('\n');
    case 'plan':
      return e.entries.map((p) => p.content).join('\n');
    case 'notice':
      return [e.title, e.description ?? ''].join('\n');
    case 'error':
      return [e.message, ...(e.stderrTail ?? [])].join('\n');
    case 'session_info':
      return e.title ?? '';
    case 'mode_change':
      return e.modeId;
    case 'available_commands':
      return e.commands.map((c) => `/${c.name} ${c.description ?? ''}`).join('\n');
    default:
      return '';
  }
}

/** Whether `e` holds `needle` (already lower case), ignoring case. */
export function entryMatches(e: Entry, needle: string): boolean {
  return needle.length > 0 && entryFindText(e).toLowerCase().includes(needle);
}

function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks.map(blockText).join('\n');
}

function blockText(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'resource_link':
      return [b.name, b.uri, b.title ?? ''].join('\n');
    case 'resource':
      return [b.resource?.uri ?? '', b.resource?.text ?? ''].join('\n');
    default:
      return '';
  }
}

function toolContentText(c: ToolCallContent): string {
  switch (c.type) {
    case 'content':
      return blockText(c.content);
    case 'diff':
      return [c.path, c.oldText ?? '', c.newText].join('\n');
    case 'diff_preview':
      return c.path;
    default:
      return '';
  }
}
