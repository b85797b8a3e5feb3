/**
 * Minimal checks that turn untrusted wire JSON into the transcript's shapes. Items are kept as the
 * agent sent them (extra fields included); only what would break a renderer is filtered out.
 */
import { isJsonObject, str, type JsonObject, type JsonValue } from '../trace/json';
import type {
  AvailableCommand,
  ContentBlock,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionModelState,
  SessionModeState,
  ToolCallContent,
  ToolCallLocation,
} from './acp-types';

const objects = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isJsonObject) : []);

/** A content block: any object with a string `type` (unknown types pass through for the UI to show raw). */
export function asContentBlock(v: JsonValue | undefined): ContentBlock | undefined {
  return isJsonObject(v) && typeof v.type === 'string' ? (v as unknown as ContentBlock) : undefined;
}

export function asContentBlocks(v: JsonValue | undefined): ContentBlock[] {
  return objects(v).filter((b) => typeof b.type === 'string') as unknown as ContentBlock[];
}

export function asToolCallContent(v: JsonValue | undefined): ToolCallContent[] {
  return objects(v).filter((c) => typeof c.type === 'string') as unknown as ToolCallContent[];
}

export function hasDiff(content: readonly ToolCallContent[]): boolean {
  return content.some((c) => c.type === 'diff');
}

export function asLocations(v: JsonValue | undefined): ToolCallLocation[] {
  return objects(v).filter((l) => typeof l.path === 'string') as unknown as ToolCallLocation[];
}

export function asPlanEntries(v: JsonValue | undefined): PlanEntry[] {
  return objects(v).filter((e) => typeof e.content === 'string') as unknown as PlanEntry[];
}

export function asPermissionOptions(v: JsonValue | undefined): PermissionOption[] {
  return objects(v).filter((o) => typeof o.optionId === 'string') as unknown as PermissionOption[];
}

export function asAvailableCommands(v: JsonValue | undefined): AvailableCommand[] {
  return objects(v).filter((c) => typeof c.name === 'string') as unknown as AvailableCommand[];
}

export function asConfigOptions(v: JsonValue | undefined): SessionConfigOption[] {
  return objects(v).filter((o) => typeof o.id === 'string') as unknown as SessionConfigOption[];
}

export function asModes(v: JsonValue | undefined): SessionModeState | undefined {
  return isJsonObject(v) && typeof v.currentModeId === 'string'
    ? ({ currentModeId: v.currentModeId, availableModes: objects(v.availableModes) } as unknown as SessionModeState)
    : undefined;
}

export function asModels(v: JsonValue | undefined): SessionModelState | undefined {
  return isJsonObject(v) && typeof v.currentModelId === 'string'
    ? ({ currentModelId: v.currentModelId, availableModels: objects(v.availableModels) } as unknown as SessionModelState)
    : undefined;
}

/** The plain text of some content blocks (text blocks only), for echo matching and the CLI. */
export function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The message of a JSON-RPC error object, tolerating agents that send odd shapes. */
export function errorOf(v: JsonValue | undefined): { code?: number; message: string; data?: JsonValue } {
  if (!isJsonObject(v)) return { message: 'the agent answered with an error' };
  const out: { code?: number; message: string; data?: JsonValue } = { message: str(v, 'message') ?? 'the agent answered with an error' };
  if (typeof v.code === 'number') out.code = v.code;
  if (v.data !== undefined) out.data = v.data;
  return out;
}
