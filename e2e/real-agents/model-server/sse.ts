/** Server-sent events framing and ids shared by the encoders. */
import { randomBytes } from 'node:crypto';

/** One SSE frame; `event` is omitted for APIs that only send `data:` lines (OpenAI Chat, Gemini). */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** Rough token count for usage fields: agents show it, nobody checks it. */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** Splits streamed JSON arguments like the real APIs do, so clients must concatenate fragments. */
export function splitInTwo(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}
