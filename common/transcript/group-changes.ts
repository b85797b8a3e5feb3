/**
 * Pure rules of the changes panel (no DOM, no API): the agent's writes grouped per file, what the
 * file looked like before the first of them, and which writes an "undo this file" takes back.
 */
import type { FileChange } from './model';

export interface FileGroup {
  path: string;
  /** This file's writes in the order they happened (latest last). */
  changes: FileChange[];
  /**
   * The text before the agent's first write: null when the file did not exist; undefined when not
   * known (only the write request was seen), then `baseIndex` says which write the diff starts from.
   */
  original: string | null | undefined;
  /** Index in `changes` of the first write whose old text is known (the diff's left side), -1 if none. */
  baseIndex: number;
  /** The text after the latest write. */
  current: string;
  /** Writes whose answer was an error (the file may not have changed). */
  failed: number;
  /** Trace time of the latest write. */
  lastT: number;
}

/** Writes grouped per path, files in the order the agent first wrote them. */
export function groupFileChanges(changes: readonly FileChange[]): FileGroup[] {
  const byPath = new Map<string, FileChange[]>();
  for (const change of changes) {
    let list = byPath.get(change.path);
    if (!list) byPath.set(change.path, (list = []));
    list.push(change);
  }
  const groups: FileGroup[] = [];
  for (const [path, list] of byPath) {
    const applied = list.filter((c) => !c.error);
    const sides = applied.length > 0 ? applied : list;
    const baseIndex = list.findIndex((c) => !c.error && c.oldText !== undefined);
    const first = sides[0]!;
    groups.push({
      path,
      changes: list,
      original: first.oldText,
      baseIndex,
      current: sides[sides.length - 1]!.newText,
      failed: list.length - applied.length,
      lastT: list[list.length - 1]!.t,
    });
  }
  return groups;
}

/** The left side of the file's diff: the original when known, else the old text of the first write that has one. */
export function diffBase(group: FileGroup): { oldText: string | null; exact: boolean } {
  if (group.original !== undefined) return { oldText: group.original, exact: true };
  const base = group.baseIndex >= 0 ? group.changes[group.baseIndex]!.oldText : undefined;
  return { oldText: base ?? '', exact: false };
}

/**
 * The writes "undo this file" takes back, latest first (each undo restores the text before that
 * write, which is what the write before it left): those not undone yet and not failed.
 */
export function undoPlan(group: FileGroup, undone: ReadonlySet<string>): FileChange[] {
  return group.changes.filter((c) => !c.error && !undone.has(c.id)).reverse();
}

/** Whether every applied write of the file has been undone. */
export function isFullyUndone(group: FileGroup, undone: ReadonlySet<string>): boolean {
  const applied = group.changes.filter((c) => !c.error);
  return applied.length > 0 && applied.every((c) => undone.has(c.id));
}
