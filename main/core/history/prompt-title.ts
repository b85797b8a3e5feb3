import { isJsonObject } from '../../../common/trace/json';
import { isPrimerBlock } from './continue/primer-marker';

/** How much of a first prompt names its session (history's title, the sidebar's label). */
export const PROMPT_TITLE_CHARS = 200;

/**
 * The user's words in a prompt as one line — text blocks only, without those the workbench added
 * (a primer's) — cut to PROMPT_TITLE_CHARS; undefined when the prompt has no words (only
 * attachments, say). The same rule names a session in history and while it is live.
 */
export function promptTitle(prompt: unknown): string | undefined {
  const blocks = Array.isArray(prompt) ? prompt : [];
  const text = blocks
    .map((b) => (isJsonObject(b) && b.type === 'text' && typeof b.text === 'string' && !isPrimerBlock(b) ? b.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return undefined;
  return text.length > PROMPT_TITLE_CHARS ? `${text.slice(0, PROMPT_TITLE_CHARS - 1)}…` : text;
}
