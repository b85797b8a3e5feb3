/**
 * A unified diff (`-`/`+`/` ` lines in hunks) between two texts, for Markdown exports. Longest
 * common subsequence on lines; texts too large for that are shown as all removed / all added.
 */

const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

function ops(a: string[], b: string[]): Op[] {
  // Common head and tail are cheap and usually most of a file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const middle: Op[] = [];
  if ((am.length + 1) * (bm.length + 1) > MAX_CELLS) {
    for (const line of am) middle.push({ kind: '-', line });
    for (const line of bm) middle.push({ kind: '+', line });
  } else {
    const w = bm.length + 1;
    const lcs = new Uint32Array((am.length + 1) * w);
    for (let i = am.length - 1; i >= 0; i--) {
      for (let j = bm.length - 1; j >= 0; j--) {
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) {
        middle.push({ kind: ' ', line: am[i]! });
        i++;
        j++;
      } else if (i < am.length && (j === bm.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) middle.push({ kind: '-', line: am[i++]! });
      else middle.push({ kind: '+', line: bm[j++]! });
    }
  }
  return [...a.slice(0, head).map((line): Op => ({ kind: ' ', line })), ...middle, ...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line }))];
}

/** Unified diff hunks (without file headers); '' when the texts are equal. */
export function unifiedDiff(oldText: string | null | undefined, newText: string): string {
  // A final newline ends the last line; it is not a line of its own.
  const lines = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const a = oldText ? lines(oldText) : [];
  const b = lines(newText);
  const all = ops(a, b);
  const changed = all.map((o, i) => (o.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  const out: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = Math.min(all.length, changed[k]! + CONTEXT + 1);
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end) end = Math.min(all.length, changed[++k]! + CONTEXT + 1);
    k++;
    let oldStart = 1;
    let newStart = 1;
    for (let i = 0; i < start; i++) {
      if (all[i]!.kind !== '+') oldStart++;
      if (all[i]!.kind !== '-') newStart++;
    }
    const hunk = all.slice(start, end);
    const oldLen = hunk.filter((o) => o.kind !== '+').length;
    const newLen = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${oldLen ? oldStart : oldStart - 1},${oldLen} +${newLen ? newStart : newStart - 1},${newLen} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
  }
  return out.join('\n');
}
