/**
 * Priming: when the agent cannot resume, load or fork the session itself (or it is another agent),
 * a new session's first prompt carries the earlier transcript as Markdown in an embedded resource,
 * followed by the user's new text. Long transcripts are capped: the beginning (what the task was)
 * and the most recent part (where it stands) are kept, with a marker where text was cut.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import type { Transcript } from '../../../../common/transcript/model';
import type { HistoryEntry } from '../history-types';
import { renderSessionMarkdown } from '../render-markdown';
import { primerMeta } from './primer-marker';

/** Default cap of the primer, in characters (about 25k tokens). */
export const DEFAULT_PRIMER_MAX_CHARS = 100_000;
/** Share of the cap kept from the beginning; the rest comes from the end. */
const HEAD_SHARE = 0.3;

export interface Capped {
  text: string;
  /** Characters left out (0 when the text fit). */
  cut: number;
}

/** `text` within `max` characters: its head and its tail, joined by a marker saying what was cut. */
export function capMiddle(text: string, max: number): Capped {
  if (text.length <= max) return { text, cut: 0 };
  const marker = (n: number) => `\n\n[… ${n} characters of the earlier transcript were cut here …]\n\n`;
  const room = Math.max(0, max - marker(text.length).length);
  let head = Math.floor(room * HEAD_SHARE);
  let tail = room - head;
  // Cut at line ends where one is near, so the kept parts stay readable Markdown.
  const headEnd = text.lastIndexOf('\n', head);
  if (headEnd > head * 0.8) head = headEnd;
  const tailStart = text.indexOf('\n', text.length - tail);
  if (tailStart >= 0 && text.length - tailStart > tail * 0.8) tail = text.length - tailStart - 1;
  const cut = text.length - head - tail;
  return { text: `${text.slice(0, head)}${marker(cut)}${text.slice(text.length - tail)}`, cut };
}

export interface Primer {
  markdown: string;
  cut: number;
  /** The notice recorded in the new session, saying how it was primed. */
  notice: string;
  blocks(newText: string): ContentBlock[];
}

export function buildPrimer(
  parent: HistoryEntry,
  transcript: Transcript,
  options: { maxChars?: number; embeddedContext: boolean; why: string },
): Primer {
  const full = renderSessionMarkdown(parent, [transcript]);
  const { text, cut } = capMiddle(full, options.maxChars ?? DEFAULT_PRIMER_MAX_CHARS);
  const intro = `The conversation so far (session ${parent.id} with ${parent.agent.label}) is attached; continue from it.`;
  const uri = `acp-workbench://sessions/${parent.id}/transcript.md`;
  const notice =
    `${options.why} This session was primed instead: its first prompt carries the earlier transcript ` +
    `(${text.length} characters of Markdown${cut ? `, ${cut} cut from the middle` : ''}) ${options.embeddedContext ? 'as an embedded resource' : 'as text (the agent does not accept embedded resources)'}.`;
  return {
    markdown: text,
    cut,
    notice,
    blocks: (newText) => [
      { type: 'text', text: intro, _meta: primerMeta },
      options.embeddedContext
        ? { type: 'resource', resource: { uri, mimeType: 'text/markdown', text }, _meta: primerMeta }
        : { type: 'text', text: `<transcript uri="${uri}">\n${text}\n</transcript>`, _meta: primerMeta },
      { type: 'text', text: newText },
    ],
  };
}
