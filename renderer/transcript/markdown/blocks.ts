/**
 * Splits markdown into top-level blocks (paragraph runs, lists, fenced code...) so a streaming
 * message re-parses only its last block: settled blocks keep their object identity from one chunk
 * to the next (memoized rows skip them), and each chunk costs O(tail), not O(message).
 * Pure: no DOM, tested in Node.
 */

export interface FenceInfo {
  /** First word of the info string, lower-cased ('' when none). */
  lang: string;
  /** The lines between the fences (without the final newline). */
  body: string;
  /** The closing fence has been seen. */
  closed: boolean;
}

export interface MarkdownBlock {
  /** Offset of the block in the message text: stable for a settled block, used as React key. */
  readonly key: number;
  readonly text: string;
  /** Set for a top-level fenced code block, rendered without going through the markdown parser. */
  readonly fence?: FenceInfo;
}

/** Settled blocks are kept in groups of this size; full groups never change (cheap memo). */
export const GROUP_SIZE = 32;

export interface BlockSplit {
  /** The text this split describes. */
  readonly source: string;
  /** Blocks that can no longer change, in groups of GROUP_SIZE (the last group may be shorter). */
  readonly groups: readonly (readonly MarkdownBlock[])[];
  /** The last block, still open while the text grows (absent for empty text). */
  readonly tail: MarkdownBlock | null;
  /** Where the tail starts: the re-scan point for the next chunk. */
  readonly tailStart: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;

export interface RawBlock {
  start: number;
  end: number;
  fence?: { char: string; len: number; info: string; bodyStart: number; bodyEnd: number; closed: boolean };
  list: boolean;
}

/** Scans `text` from `from` (a line start) to the end; returns the blocks found, in order. */
export function scanBlocks(text: string, from: number): RawBlock[] {
  const blocks: RawBlock[] = [];
  let cur: RawBlock | null = null;
  let blankSeen = false;
  let pos = from;
  const n = text.length;
  const finish = (end: number) => {
    if (cur) {
      cur.end = end;
      blocks.push(cur);
    }
    cur = null;
    blankSeen = false;
  };
  while (pos < n) {
    let nl = text.indexOf('\n', pos);
    const complete = nl !== -1;
    if (!complete) nl = n;
    const line = text.slice(pos, nl);
    const next = complete ? nl + 1 : n;
    const open: RawBlock | null = cur;
    if (open?.fence && !open.fence.closed) {
      const f = open.fence;
      const cm = FENCE_CLOSE.exec(line);
      const closing = cm !== null && cm[1]![0] === f.char && cm[1]!.length >= f.len;
      if (closing) {
        f.bodyEnd = Math.max(f.bodyStart, pos - 1);
        f.closed = true;
        finish(next);
      } else {
        f.bodyEnd = complete ? nl : n;
      }
      pos = next;
      continue;
    }
    if (BLANK.test(line)) {
      if (cur) blankSeen = true;
      pos = next;
      continue;
    }
    if (cur !== null && (cur as RawBlock).list && /^[ \t]/.test(line)) {
      // An indented line inside a list (a nested fence too) belongs to the list item.
      blankSeen = false;
      pos = next;
      continue;
    }
    const fm = FENCE_OPEN.exec(line);
    const isFence = fm !== null && !(fm[1]!.startsWith('`') && fm[2]!.includes('`'));
    if (isFence) {
      finish(pos);
      const bodyStart = complete ? next : n;
      cur = {
        start: pos,
        end: n,
        list: false,
        fence: { char: fm[1]![0]!, len: fm[1]!.length, info: fm[2]!.trim(), bodyStart, bodyEnd: bodyStart, closed: false },
      };
      pos = next;
      continue;
    }
    if (cur && blankSeen) {
      // After a blank line, an indented line or another item of the same list continues the block.
      const continues = /^[ \t]/.test(line) || (cur.list && LIST_ITEM.test(line));
      if (!continues) finish(pos);
      else blankSeen = false;
    }
    if (!cur) cur = { start: pos, end: n, list: LIST_ITEM.test(line) };
    pos = next;
  }
  finish(n);
  return blocks;
}

function toBlock(text: string, raw: RawBlock): MarkdownBlock {
  const blockText = text.slice(raw.start, raw.end);
  if (!raw.fence) return { key: raw.start, text: blockText };
  const f = raw.fence;
  const body = f.bodyEnd > f.bodyStart ? text.slice(f.bodyStart, f.bodyEnd) : '';
  return { key: raw.start, text: blockText, fence: { lang: (f.info.split(/\s+/)[0] ?? '').toLowerCase(), body, closed: f.closed } };
}

function sameBlock(a: MarkdownBlock, b: MarkdownBlock): boolean {
  return a.key === b.key && a.text.length === b.text.length && a.text === b.text && a.fence?.closed === b.fence?.closed;
}

function pushSettled(groups: (readonly MarkdownBlock[])[], block: MarkdownBlock): void {
  const last = groups[groups.length - 1];
  if (!last || last.length >= GROUP_SIZE) groups.push([block]);
  else groups[groups.length - 1] = [...last, block];
}

/** Only the prefix near the old tail is compared: text is appended, never rewritten, in practice. */
const CHECK_BEFORE_TAIL = 64;

function extendsPrevious(prev: BlockSplit, text: string): boolean {
  if (text.length < prev.source.length) return false;
  const from = Math.max(0, prev.tailStart - CHECK_BEFORE_TAIL);
  return text.startsWith(prev.source.slice(from), from);
}

/**
 * The split of `text`, reusing `prev` when `text` extends `prev.source`: only the old tail is
 * re-scanned. Settled blocks (and full groups) keep their identity.
 */
export function advanceBlocks(prev: BlockSplit | undefined, text: string): BlockSplit {
  if (prev && prev.source === text) return prev;
  const incremental = prev !== undefined && extendsPrevious(prev, text);
  const from = incremental ? prev.tailStart : 0;
  const groups: (readonly MarkdownBlock[])[] = incremental ? [...prev.groups] : [];
  const raws = scanBlocks(text, from);
  if (raws.length === 0) return { source: text, groups, tail: null, tailStart: from };
  for (let i = 0; i < raws.length - 1; i++) {
    let block = toBlock(text, raws[i]!);
    if (i === 0 && incremental && prev.tail && sameBlock(prev.tail, block)) block = prev.tail;
    pushSettled(groups, block);
  }
  const lastRaw = raws[raws.length - 1]!;
  let tail = toBlock(text, lastRaw);
  if (raws.length === 1 && incremental && prev.tail && sameBlock(prev.tail, tail)) tail = prev.tail;
  return { source: text, groups, tail, tailStart: lastRaw.start };
}

/** Every block of a split, in order (tests, non-streaming callers). */
export function allBlocks(split: BlockSplit): MarkdownBlock[] {
  const out = split.groups.flat();
  if (split.tail) out.push(split.tail);
  return out;
}

export function splitBlocks(text: string): MarkdownBlock[] {
  return allBlocks(advanceBlocks(undefined, text));
}
