/**
 * A plain unified diff of two texts, for what the Monaco diff editor should not carry (huge files)
 * and for views waiting for a pooled editor. Cheap by construction: the common head and tail are
 * trimmed in linear time, the middle is diffed by LCS only when it is small, else shown as one
 * replaced block. Pure, no DOM.
 */

export interface UnifiedLine {
  /** ' ' context, '-' removed, '+' added, '@' hunk header. */
  kind: ' ' | '-' | '+' | '@';
  text: string;
  oldNo?: number;
  newNo?: number;
}

export interface UnifiedDiff {
  lines: UnifiedLine[];
  added: number;
  removed: number;
  /** Lines of the diff not in `lines` because of `maxLines`. */
  omitted: number;
}

export interface UnifiedDiffOptions {
  context?: number;
  /** Cap on the lines returned (the rest is counted in `omitted`). */
  maxLines?: number;
  /** Cap on old × new lines of the middle part for the LCS; above it the middle is one replaced block. */
  maxLcsCells?: number;
}

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

type Op = { kind: ' ' | '-' | '+'; text: string; oldNo?: number; newNo?: number };

export function unifiedDiff(oldText: string | null | undefined, newText: string, options: UnifiedDiffOptions = {}): UnifiedDiff {
  const context = options.context ?? 3;
  const maxLines = options.maxLines ?? 20_000;
  const maxCells = options.maxLcsCells ?? 2_000_000;
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);

  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: ' ', text: a[i]!, oldNo: i + 1, newNo: i + 1 });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  for (const op of middleOps(midA, midB, maxCells)) {
    ops.push({
      ...op,
      ...(op.oldNo !== undefined ? { oldNo: op.oldNo + head } : {}),
      ...(op.newNo !== undefined ? { newNo: op.newNo + head } : {}),
    });
  }
  for (let k = tail; k > 0; k--) ops.push({ kind: ' ', text: a[a.length - k]!, oldNo: a.length - k + 1, newNo: b.length - k + 1 });

  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === '+') added++;
    else if (op.kind === '-') removed++;
  }
  const all = hunks(ops, context);
  return { lines: all.slice(0, maxLines), added, removed, omitted: Math.max(0, all.length - maxLines) };
}

/** The middle part: LCS when small enough, else everything old removed and everything new added. Numbers are 1-based within the middle. */
function middleOps(a: string[], b: string[], maxCells: number): Op[] {
  const n = a.length;
  const m = b.length;
  const ops: Op[] = [];
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > maxCells) {
    a.forEach((text, i) => ops.push({ kind: '-', text, oldNo: i + 1 }));
    b.forEach((text, j) => ops.push({ kind: '+', text, newNo: j + 1 }));
    return ops;
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], flattened.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i]!, oldNo: i + 1, newNo: j + 1 });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
      ops.push({ kind: '+', text: b[j]!, newNo: j + 1 });
      j++;
    } else {
      ops.push({ kind: '-', text: a[i]!, oldNo: i + 1 });
      i++;
    }
  }
  // Removed lines read better before the added ones of the same change.
  return reorderRuns(ops);
}

/** Within each run of changed lines, removals first, then additions. */
function reorderRuns(ops: Op[]): Op[] {
  const out: Op[] = [];
  let minus: Op[] = [];
  let plus: Op[] = [];
  const flush = () => {
    out.push(...minus, ...plus);
    minus = [];
    plus = [];
  };
  for (const op of ops) {
    if (op.kind === '-') minus.push(op);
    else if (op.kind === '+') plus.push(op);
    else {
      flush();
      out.push(op);
    }
  }
  flush();
  return out;
}

/** Keep `context` lines around changes, with `@@ -a,b +c,d @@` headers. */
function hunks(ops: Op[], context: number): UnifiedLine[] {
  const keep = new Uint8Array(ops.length);
  ops.forEach((op, k) => {
    if (op.kind === ' ') return;
    for (let d = Math.max(0, k - context); d <= Math.min(ops.length - 1, k + context); d++) keep[d] = 1;
  });
  const out: UnifiedLine[] = [];
  let k = 0;
  while (k < ops.length) {
    if (!keep[k]) {
      k++;
      continue;
    }
    let end = k;
    while (end < ops.length && keep[end]) end++;
    const hunk = ops.slice(k, end);
    const oldStart = firstNo(ops, k, 'oldNo');
    const newStart = firstNo(ops, k, 'newNo');
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out.push({ kind: '@', text: `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@` });
    for (const op of hunk) out.push(op);
    k = end;
  }
  return out;
}

/** The line number a hunk starting at ops[k] starts at on one side (the next numbered line, else one past the last). */
function firstNo(ops: Op[], k: number, side: 'oldNo' | 'newNo'): number {
  for (let i = k; i < ops.length; i++) {
    const no = ops[i]![side];
    if (no !== undefined) return no;
  }
  for (let i = k - 1; i >= 0; i--) {
    const no = ops[i]![side];
    if (no !== undefined) return no + 1;
  }
  return 1;
}
