/**
 * The model server's vocabulary, shared by every wire API: a request normalized to what the
 * scenario player needs, and a reply that each API encoder turns into its own stream.
 */

/** A tool the calling agent offered to the model, as declared in its request. */
export interface ToolDef {
  name: string;
  description?: string;
  /** JSON Schema of the input (parameters); `undefined` for free-form (custom) tools. */
  schema?: JsonSchema;
  /** `custom`: an OpenAI Responses free-form tool whose input is one string (codex's apply_patch). */
  type: 'function' | 'custom';
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  [key: string]: unknown;
}

/** One message of the conversation, reduced to what decides the next step. */
export type ConversationEntry =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: string[] }
  | { role: 'tool_result'; callId: string; text: string; isError?: boolean };

export type WireApi = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

export interface NormalizedRequest {
  api: WireApi;
  model: string;
  stream: boolean;
  /** System instructions (Anthropic `system`, OpenAI system/developer messages, Gemini systemInstruction). */
  system: string;
  tools: ToolDef[];
  conversation: ConversationEntry[];
  /** Set when the caller asked for structured JSON output (Gemini's next-speaker check, title requests). */
  jsonSchema?: JsonSchema;
}

export interface ToolCallOut {
  /** Id the agent will quote back with the result (`toolu_…`, `call_…`). */
  id: string;
  name: string;
  /** Function tools: the arguments object. */
  input: Record<string, unknown>;
  /** Custom (free-form) tools: the raw input string. */
  rawInput?: string;
}

export interface ModelReply {
  /** Text streamed before any tool call, split into chunks as they will be sent. */
  textChunks: string[];
  toolCalls: ToolCallOut[];
  /** Milliseconds to wait between frames (the slow scenario streams at a crawl so it can be cancelled). */
  frameDelayMs: number;
}

/** An encoded streaming response: SSE frames written in order, with an optional pause between them. */
export interface EncodedStream {
  contentType: string;
  frames: string[];
}

/** What the server decided for one model request; kept in memory and in the log for debugging. */
export interface ReplyRecord {
  time: string;
  api: WireApi;
  model: string;
  scenario: string | null;
  step: number;
  /** The scripted action played, e.g. `edit`, or `side-request` for title / next-speaker calls. */
  action: string;
  toolName?: string;
  toolInput?: unknown;
  /** The tool result text the agent sent for the previous step (how the smoke check sees shell output). */
  previousToolResult?: string;
  previousToolResultIsError?: boolean;
  note?: string;
}
