/**
 * A compact unified line diff of a tool call's oldText/newText for the transcript (the full Monaco
 * diff editor is one click away). Myers' O(ND) algorithm on the part between the common prefix and
 * suffix, with caps: past MAX_DIFF_LINES the diff is not computed inline, and past MAX_EDIT_DISTANCE
 * the middle is shown as "all removed, all added" (correct, just not minimal).
 * Pure: no DOM, tested in Node.
 */

export const MAX_DIFF_LINES = 5000;
export const MAX_EDIT_DISTANCE = 1000;

export type DiffLineKind = 'context' | 'add' | 'del';
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** 1-based line numbers; absent on the side the line does not exist in. */
  oldNo?: number;
  newNo?: number;
}
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export type InlineDiff =
  | { kind: 'diff'; hunks: Hunk[]; added: number; removed: number; newFile: boolean }
  | { kind: 'identical' }
  | { kind: 'too-large'; oldLines: number; newLines: number };

/** Lines of a text; a final newline does not make an extra empty line. */
export function splitLines(text: string | null | undefined): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Edit script between two sequences of line ids: 0 = keep, 1 = delete from a, 2 = insert from b. */
export function editScript(a: readonly number[], b: readonly number[], maxD = MAX_EDIT_DISTANCE): number[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  // No line in common (a file rewritten): Myers would search every diagonal, O((N+M)²), to find
  // what it finds then anyway, every deletion followed by every insertion (issue #11: opening a
  // long session computed these diffs in the first render).
  const replaced = () => [...midA.map(() => 1), ...midB.map(() => 2)];
  const middle = disjoint(midA, midB) ? replaced() : (myers(midA, midB, maxD) ?? replaced());
  return [...new Array<number>(pre).fill(0), ...middle, ...new Array<number>(suf).fill(0)];
}

function disjoint(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  const inA = new Set(a);
  return !b.some((x) => inA.has(x));
}

/** Myers' greedy forward search with a trace of V per step; null past maxD. */
function myers(a: readonly number[], b: readonly number[], maxD: number): number[] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map(() => 2);
  if (m === 0) return a.map(() => 1);
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Keep only the diagonals reachable at step d: O(D²) memory overall.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number): number[] {
  const ops: number[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const vd = trace[d]!; // V before step d: diagonals -(d) .. d stored from index 0 (k = -d-1)
    const at = (k: number) => vd[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(0);
      x--;
      y--;
    }
    if (x === prevX) {
      ops.push(2);
      y--;
    } else {
      ops.push(1);
      x--;
    }
  }
  while (x > 0 && y > 0) {
    ops.push(0);
    x--;
    y--;
  }
  return ops.reverse();
}

/**
 * The unified diff of two texts, in hunks with `context` lines around each change. Past `maxLines`
 * (both texts together) it is not computed: the transcript's cap; an export passes Infinity.
 */
export function lineDiff(oldText: string | null | undefined, newText: string, context = 3, maxLines = MAX_DIFF_LINES): InlineDiff {
  const newFile = oldText === null || oldText === undefined;
  const a = splitLines(oldText);
  const b = splitLines(newText);
  if (a.length + b.length > maxLines) return { kind: 'too-large', oldLines: a.length, newLines: b.length };
  const ids = new Map<string, number>();
  const id = (line: string) => {
    let v = ids.get(line);
    if (v === undefined) ids.set(line, (v = ids.size));
    return v;
  };
  const ops = editScript(a.map(id), b.map(id));
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op === 0) {
      lines.push({ kind: 'context', text: a[i]!, oldNo: i + 1, newNo: j + 1 });
      i++;
      j++;
    } else if (op === 1) {
      lines.push({ kind: 'del', text: a[i]!, oldNo: i + 1 });
      i++;
      removed++;
    } else {
      lines.push({ kind: 'add', text: b[j]!, newNo: j + 1 });
      j++;
      added++;
    }
  }
  if (added === 0 && removed === 0) return newFile && b.length === 0 ? { kind: 'diff', hunks: [], added, removed, newFile } : { kind: 'identical' };
  return { kind: 'diff', hunks: toHunks(lines, context), added, removed, newFile };
}

function toHunks(lines: DiffLine[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let cur: DiffLine[] | null = null;
  let lastChange = -Infinity;
  for (let idx = 0; idx < lines.length; idx++) {
    const line = lines[idx]!;
    if (line.kind !== 'context') {
      if (!cur || idx - lastChange > 2 * context) {
        if (cur) hunks.push(makeHunk(cur));
        cur = lines.slice(Math.max(0, idx - context, lastChange + context + 1), idx);
      } else {
        // Close the gap from the previous change.
        for (let g = lastChange + context + 1; g < idx; g++) cur.push(lines[g]!);
      }
      cur.push(line);
      lastChange = idx;
    } else if (cur && idx - lastChange <= context) {
      cur.push(line);
    }
  }
  if (cur) hunks.push(makeHunk(cur));
  return hunks;
}

function makeHunk(lines: DiffLine[]): Hunk {
  const firstOld = lines.find((l) => l.oldNo !== undefined)?.oldNo;
  const firstNew = lines.find((l) => l.newNo !== undefined)?.newNo;
  const oldLines = lines.filter((l) => l.kind !== 'add').length;
  const newLines = lines.filter((l) => l.kind !== 'del').length;
  return {
    oldStart: firstOld ?? firstNewToOld(lines),
    oldLines,
    newStart: firstNew ?? 0,
    newLines,
    lines,
  };
}

/** A hunk of additions only: old start is the line before (0 at the top), as `diff -u` prints it. */
function firstNewToOld(lines: DiffLine[]): number {
  const n = lines[0]?.newNo ?? 1;
  return Math.max(0, n - 1);
}

/** `@@ -a,b +c,d @@` */
export function hunkHeader(h: Hunk): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}
