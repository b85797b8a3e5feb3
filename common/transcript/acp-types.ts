/**
 * The ACP v1 shapes the transcript keeps (acp-reference.md §6–§11). Values come from agents and are
 * stored as received: a field an agent adds, or a `type` from a newer protocol, passes through
 * untouched — these types name what the UI may rely on, not all that may be there.
 */
import type { JsonObject, JsonValue } from '../trace/json';

export interface Annotated {
  annotations?: JsonObject | null;
  _meta?: JsonObject | null;
}

export interface TextContent extends Annotated {
  type: 'text';
  text: string;
}
export interface ImageContent extends Annotated {
  type: 'image';
  data: string;
  mimeType: string;
  uri?: string | null;
}
export interface AudioContent extends Annotated {
  type: 'audio';
  data: string;
  mimeType: string;
}
export interface ResourceLinkContent extends Annotated {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string | null;
  description?: string | null;
  mimeType?: string | null;
  size?: number | null;
}
export interface EmbeddedResourceContent extends Annotated {
  type: 'resource';
  resource: { uri: string; text?: string; blob?: string; mimeType?: string | null };
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';
/** ACP's four statuses plus our local `cancelled` (v1 has none; the client marks it). */
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface DiffContent {
  type: 'diff';
  path: string;
  /** null or absent: a new file. */
  oldText?: string | null;
  newText: string;
}
export interface WrappedContent {
  type: 'content';
  content: ContentBlock;
}
export interface TerminalContent {
  type: 'terminal';
  terminalId: string;
}
/**
 * Not ACP: a large diff as the core sends it to a window (common/transcript/window-diffs.ts) — what
 * the collapsed inline view shows, without the texts, which the window asks for when a reader needs
 * them (`session/diff-texts`). Never in a trace, in the core's transcript or in a history answer.
 */
export interface DiffPreviewContent {
  type: 'diff_preview';
  path: string;
  /** What the agent sent as `oldText`: a text, null (a new file) or nothing (a new file, or "see the disk"). */
  old: 'text' | 'null' | 'absent';
  /** Lengths (UTF-16 code units) of the two texts: the texts fetched must be these. */
  oldLength: number;
  newLength: number;
  /** The inline view of the diff, collapsed (common/diff/large-diff-preview.ts). */
  view: DiffPreviewView;
}

/** A `DiffPreviewContent`'s inline view: `lineDiff`'s result with only the rows the collapsed view shows. */
export type DiffPreviewView =
  | {
      kind: 'diff';
      added: number;
      removed: number;
      newFile: boolean;
      /** The collapsed rows (`diffPreview(hunks, false)`), each hunk cut to the lines shown. */
      rows: CollapsedRows;
      /** Digits of the diff's largest line number (the number columns' width, at least 3). */
      digits: number;
    }
  | { kind: 'identical' }
  | { kind: 'too-large'; oldLines: number; newLines: number };

/** `diffPreview`'s result (common/diff/collapsed-diff.ts), as plain data. */
export interface CollapsedRows {
  hunks: { hunk: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: { kind: 'context' | 'add' | 'del'; text: string; oldNo?: number; newNo?: number }[] }; lines: number }[];
  shown: number;
  total: number;
  collapsible: boolean;
}

export type ToolCallContent = WrappedContent | DiffContent | TerminalContent | DiffPreviewContent;

export interface ToolCallLocation {
  path: string;
  line?: number | null;
}

export interface PlanEntry {
  content: string;
  priority: 'high' | 'medium' | 'low';
  status: 'pending' | 'in_progress' | 'completed';
}

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

export interface AvailableCommand {
  name: string;
  description: string;
  input?: { hint: string } | null;
}

export interface SessionMode {
  id: string;
  name: string;
  description?: string | null;
}
export interface SessionModeState {
  currentModeId: string;
  availableModes: SessionMode[];
}

/** Legacy `models` (acp-reference §11.3), kept while agents still send it. */
export interface SessionModelState {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description?: string | null }[];
}

export interface SessionConfigOption {
  id: string;
  name: string;
  description?: string | null;
  category?: string | null;
  type: 'select' | 'boolean' | (string & {});
  currentValue: JsonValue;
  options?: JsonValue[];
}

export interface Cost {
  amount: number;
  currency: string;
}
