/**
 * A large diff as a window gets it (issue #11): what the collapsed inline view shows — its first
 * rows, the +/− counts, whether the file is new — and the texts' lengths, without the texts. The
 * texts stay in the core, which answers `session/diff-texts` for the readers that need them (the
 * expanded diff, the diff editor, the changes panel). Computed with the same `lineDiff` and
 * `diffPreview` the window uses on a diff it has whole, so a preview shows what the full diff's
 * collapsed view would (tested).
 * Pure: no DOM, no Node.
 */
import type { CollapsedRows, DiffContent, DiffPreviewContent, DiffPreviewView, ToolCallContent } from '../transcript/acp-types';
import { diffPreview, PREVIEW_ROWS, WHOLE_UP_TO } from './collapsed-diff';
import { lineDiff, MAX_DIFF_LINES, type DiffLine, type Hunk } from './line-diff';
import { TextLines } from './text-lines';

/** Context lines around a change (lineDiff's default). */
const CONTEXT = 3;

/**
 * A diff whose `oldText` and `newText` together are longer than this (UTF-16 code units) goes to a
 * window as a preview. 8 KiB: ≈ 100 lines of code on each side at the usual 40 characters a line,
 * past which the collapsed view (12 rows) shows a small part of the texts; an edit of a few lines
 * in a small file — most edits agents send — stays whole, so nothing changes for it. The
 * benchmark's diffs (≈ 16 KiB) and any rewrite of a real file are above it.
 */
export const LARGE_DIFF_CHARS = 8 * 1024;

/** Whether `item` is a well-formed diff whose texts are larger than `LARGE_DIFF_CHARS` together. */
export function isLargeDiff(item: ToolCallContent): item is DiffContent {
  if (item.type !== 'diff') return false;
  const { path, oldText, newText } = item as DiffContent;
  if (typeof path !== 'string' || typeof newText !== 'string') return false;
  if (oldText !== undefined && oldText !== null && typeof oldText !== 'string') return false;
  return (oldText?.length ?? 0) + newText.length > LARGE_DIFF_CHARS;
}

/** The preview of a diff (any size; `isLargeDiff` says which are sent so). */
export function previewOfDiff(d: DiffContent): DiffPreviewContent {
  return {
    type: 'diff_preview',
    path: d.path,
    old: d.oldText === null ? 'null' : d.oldText === undefined ? 'absent' : 'text',
    oldLength: d.oldText?.length ?? 0,
    newLength: d.newText.length,
    view: detached(previewView(d.oldText, d.newText)),
  };
}

/**
 * `view` with each row's text a string of its own (issue #11). A row is a line cut from a diff's
 * text, and V8 makes a cut of 13 characters or more a *sliced* string that keeps its whole parent
 * alive: a preview of a few rows held both 16 KiB texts for as long as it lived (in a session's
 * pending batch, a window's pending events), which is what previews were made to avoid. The rows
 * are copied through `JSON` (a string in, an equal flat string out, lone surrogates included).
 */
function detached(view: DiffPreviewView): DiffPreviewView {
  if (view.kind !== 'diff') return view;
  const rows = view.rows;
  return {
    ...view,
    rows: { ...rows, hunks: rows.hunks.map(({ hunk, lines }) => ({ hunk: { ...hunk, lines: hunk.lines.map((line) => ({ ...line, text: ownString(line.text) })) }, lines })) },
  };
}

/** An equal string that shares no characters with `text`'s parent (see `detached`). */
export function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

function previewView(oldText: string | null | undefined, newText: string): DiffPreviewView {
  return oneBlockView(oldText, newText) ?? generalView(oldText, newText);
}

/** The view through `lineDiff` itself: every line of the diff built, then cut. */
export function generalView(oldText: string | null | undefined, newText: string): DiffPreviewView {
  const diff = lineDiff(oldText, newText);
  if (diff.kind !== 'diff') return diff;
  const last = diff.hunks[diff.hunks.length - 1];
  const maxNo = last ? Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines) : 0;
  return { kind: 'diff', added: diff.added, removed: diff.removed, newFile: diff.newFile, rows: collapsedRows(diff.hunks), digits: Math.max(3, String(maxNo).length) };
}

/**
 * The same view without building the diff's lines, when the texts differ in one block whose old
 * and new lines have none in common (a rewrite, a new or emptied file, lines only added or only
 * removed in one place): `lineDiff` then takes every old line of the block as removed and every new
 * one as added (editScript's `disjoint` case), which makes one hunk whose size and numbers follow
 * from the block's bounds; only the rows shown are built. Null for any other pair (then
 * `generalView`). The same result as `generalView`, field for field (large-diff-preview.test.ts).
 */
export function oneBlockView(oldText: string | null | undefined, newText: string): DiffPreviewView | null {
  const newFile = oldText === null || oldText === undefined;
  const a = TextLines.of(oldText);
  const b = TextLines.of(newText);
  const countA = a.count;
  const countB = b.count;
  if (countA + countB > MAX_DIFF_LINES) return null;
  let pre = 0;
  while (pre < countA && pre < countB && a.same(pre, b, pre)) pre++;
  let suf = 0;
  while (suf < countA - pre && suf < countB - pre && a.same(countA - 1 - suf, b, countB - 1 - suf)) suf++;
  const midA = countA - pre - suf;
  const midB = countB - pre - suf;
  if (midA === 0 && midB === 0) return newFile && countB === 0 ? { kind: 'diff', added: 0, removed: 0, newFile, rows: { hunks: [], shown: 0, total: 0, collapsible: false }, digits: 3 } : { kind: 'identical' };
  if (midA > 0 && midB > 0 && !disjoint(a, b, pre, midA, midB)) return null;
  const before = Math.min(CONTEXT, pre);
  const after = Math.min(CONTEXT, suf);
  const total = before + midA + midB + after;
  const oldLines = before + midA + after;
  const newLines = before + midB + after;
  const firstOld = before > 0 ? pre - before + 1 : midA > 0 ? pre + 1 : after > 0 ? pre + midA + 1 : undefined;
  const firstNew = before > 0 ? pre - before + 1 : midB > 0 ? pre + 1 : after > 0 ? pre + midB + 1 : undefined;
  // makeHunk: a hunk with no old line starts at the line before its first new one.
  const oldStart = firstOld ?? Math.max(0, pre);
  const newStart = firstNew ?? 0;
  const collapsible = total + 1 > WHOLE_UP_TO;
  const shown = collapsible ? Math.min(total, PREVIEW_ROWS - 1) : total;
  const lines: DiffLine[] = [];
  for (let k = 0; k < shown; k++) {
    let i = k;
    if (i < before) {
      const at = pre - before + i;
      lines.push({ kind: 'context', text: a.line(at), oldNo: at + 1, newNo: at + 1 });
      continue;
    }
    i -= before;
    if (i < midA) {
      lines.push({ kind: 'del', text: a.line(pre + i), oldNo: pre + i + 1 });
      continue;
    }
    i -= midA;
    if (i < midB) {
      lines.push({ kind: 'add', text: b.line(pre + i), newNo: pre + i + 1 });
      continue;
    }
    i -= midB;
    lines.push({ kind: 'context', text: a.line(pre + midA + i), oldNo: pre + midA + i + 1, newNo: pre + midB + i + 1 });
  }
  const maxNo = Math.max(oldStart + oldLines, newStart + newLines);
  return {
    kind: 'diff',
    added: midB,
    removed: midA,
    newFile,
    rows: { hunks: [{ hunk: { oldStart, oldLines, newStart, newLines, lines }, lines: shown }], shown, total, collapsible },
    digits: Math.max(3, String(maxNo).length),
  };
}

/**
 * Whether lines a[pre, pre + midA) and b[pre, pre + midB) have none in common (editScript's
 * `disjoint`). A set of the old lines' strings cost ≈ 70 µs for a 16 KiB rewrite in the app's
 * process — more than sending the texts (issue #11) — so each old line is reduced to a fingerprint
 * of its length and first and last four characters (a small integer: cheap to make, from the text
 * itself), the fingerprints are marked in a bit set, and a new line whose fingerprint's bit is
 * clear is in no old line (most lines of a rewrite: no map to build or look up). Only a new line
 * whose bit is set is compared in full, with the old lines of its fingerprint. Lines that differ
 * at all mostly differ there. Past a budget of full comparisons or of old lines looked through
 * (many lines alike at both ends, or at the bits), the set of strings decides.
 */
function disjoint(a: TextLines, b: TextLines, pre: number, midA: number, midB: number): boolean {
  if (midA > BITS_UP_TO) return disjointByMap(a, b, pre, midA, midB);
  const bits = FINGERPRINT_BITS;
  bits.fill(0);
  let prints = oldPrints;
  if (prints.length < midA) prints = oldPrints = new Int32Array(Math.max(midA, 2 * prints.length));
  for (let i = 0; i < midA; i++) {
    const f = a.fingerprint(pre + i);
    prints[i] = f;
    const bit = bitOf(f);
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
  let budget = 2 * (midA + midB);
  let looked = 4 * (midA + midB);
  for (let j = pre; j < pre + midB; j++) {
    const f = b.fingerprint(j);
    const bit = bitOf(f);
    if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) continue;
    looked -= midA;
    if (looked < 0) return disjointBySet(a, b, pre, midA, midB);
    for (let i = 0; i < midA; i++) {
      if (prints[i] !== f) continue;
      if (a.same(pre + i, b, j)) return false;
      if (--budget < 0) return disjointBySet(a, b, pre, midA, midB);
    }
  }
  return true;
}

/**
 * Past this many old lines the bits fill (≥ 3 %) and a new line's set bit means a scan of them all:
 * the fingerprints go into a map with a chain of the old lines of each instead.
 */
const BITS_UP_TO = 512;

function disjointByMap(a: TextLines, b: TextLines, pre: number, midA: number, midB: number): boolean {
  const first = new Map<number, number>();
  const next = new Int32Array(midA);
  for (let i = midA - 1; i >= 0; i--) {
    const f = a.fingerprint(pre + i);
    next[i] = first.get(f) ?? -1;
    first.set(f, i);
  }
  let budget = 2 * (midA + midB);
  for (let j = pre; j < pre + midB; j++) {
    for (let i = first.get(b.fingerprint(j)) ?? -1; i !== -1; i = next[i]!) {
      if (a.same(pre + i, b, j)) return false;
      if (--budget < 0) return disjointBySet(a, b, pre, midA, midB);
    }
  }
  return true;
}

/** 16,384 bits (2 KiB), reused: 100 old lines set ≈ 0.6 % of them, so a line of none of them nearly always finds its bit clear. */
const FINGERPRINT_BITS = new Uint32Array(512);
/** The old lines' fingerprints, reused (grown when a diff has more). */
let oldPrints = new Int32Array(256);

function bitOf(f: number): number {
  return (f ^ (f >>> 14)) & 16383;
}

function disjointBySet(a: TextLines, b: TextLines, pre: number, midA: number, midB: number): boolean {
  const inA = new Set<string>();
  for (let i = pre; i < pre + midA; i++) inA.add(a.line(i));
  for (let j = pre; j < pre + midB; j++) if (inA.has(b.line(j))) return false;
  return true;
}

/** `diffPreview(hunks, false)` with each hunk cut to the lines shown (its header still says its full size). */
function collapsedRows(hunks: readonly Hunk[]): CollapsedRows {
  const rows = diffPreview(hunks, false);
  return {
    hunks: rows.hunks.map(({ hunk, lines }) => ({ hunk: lines === hunk.lines.length ? hunk : { ...hunk, lines: hunk.lines.slice(0, lines) }, lines })),
    shown: rows.shown,
    total: rows.total,
    collapsible: rows.collapsible,
  };
}

/** Whether fetched texts are the ones `preview` was made of (same path, same kind of old side, same lengths). */
export function textsMatchPreview(preview: DiffPreviewContent, d: DiffContent): boolean {
  const old = d.oldText === null ? 'null' : d.oldText === undefined ? 'absent' : 'text';
  return d.path === preview.path && old === preview.old && (d.oldText?.length ?? 0) === preview.oldLength && d.newText.length === preview.newLength;
}

/** Whether `item` is a preview as the core makes them (the renderer must not trust a shape it did not check). */
export function isDiffPreview(item: ToolCallContent): item is DiffPreviewContent {
  if (item.type !== 'diff_preview') return false;
  const p = item as DiffPreviewContent;
  if (typeof p.path !== 'string' || typeof p.oldLength !== 'number' || typeof p.newLength !== 'number' || typeof p.view !== 'object' || p.view === null) return false;
  if (p.view.kind === 'diff') return Array.isArray(p.view.rows?.hunks) && typeof p.view.digits === 'number';
  return p.view.kind === 'identical' || p.view.kind === 'too-large';
}
