/**
 * What a session did to each file, one diff per file: from the text before the agent's first write
 * to the text after its last, whatever way it wrote (fs/write_text_file or its own tools' diffs:
 * file-changes.ts), grouped as the changes panel groups them (group-changes.ts). History shows a
 * recorded session's changes with it, and `sessions diff` prints them, without starting its agent.
 */
import { allFileChanges } from './file-changes';
import { diffBase, groupFileChanges, type FileGroup } from './group-changes';
import type { Transcript } from './model';

export interface FileDiff {
  path: string;
  /** The text before the agent's first write; null when the file did not exist. */
  oldText: string | null;
  /** The text after its last write. */
  newText: string;
  /** False when the text before the first write is not known (only the write was seen): the diff starts at a later write, or from empty. */
  exact: boolean;
  /** Writes to the file (failed ones too). */
  writes: number;
  /** Writes our answer to was an error: the file may not have changed. */
  failed: number;
}

/** One file's writes as one diff. */
export function fileDiffOf(group: FileGroup): FileDiff {
  const base = diffBase(group);
  return { path: group.path, oldText: base.oldText, newText: group.current, exact: base.exact, writes: group.changes.length, failed: group.failed };
}

/** Every file the transcript's session wrote, in the order it first wrote them. */
export function fileDiffs(transcript: Pick<Transcript, 'ids' | 'entries' | 'fileChanges'>): FileDiff[] {
  return groupFileChanges(allFileChanges(transcript)).map(fileDiffOf);
}
