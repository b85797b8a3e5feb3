/**
 * A file's change as a patch in the unified format `git apply` and `patch` read: `---`/`+++`
 * headers (`/dev/null` for a file that did not exist), hunks with 3 lines of context, and
 * "\ No newline at end of file" where a side's text does not end with a newline — a change of that
 * alone is a change too. Every line is kept (no cap): this is for applying, not for a view.
 */
import { unifiedDiff } from './unified-diff';

/** Marks a last line with no newline after it while diffing, so that "x" and "x\n" differ. */
const NO_EOL = '\u0000';
const NO_EOL_NOTE = '\\ No newline at end of file';

function marked(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}${NO_EOL}`;
}

export interface PatchFile {
  /** The path written after `a/` and `b/` (relative, with `/` separators). */
  path: string;
  /** null: the file did not exist. */
  oldText: string | null;
  newText: string;
}

/** The patch of one file, '' when its texts are the same. Ends with a newline. */
export function unifiedPatch(file: PatchFile): string {
  const diff = unifiedDiff(marked(file.oldText ?? ''), marked(file.newText), { maxLines: Number.MAX_SAFE_INTEGER });
  if (diff.added === 0 && diff.removed === 0) return '';
  const out = [file.oldText === null ? '--- /dev/null' : `--- a/${file.path}`, `+++ b/${file.path}`];
  for (const line of diff.lines) {
    if (line.kind === '@') {
      out.push(line.text);
      continue;
    }
    const open = line.text.endsWith(NO_EOL);
    out.push(`${line.kind}${open ? line.text.slice(0, -1) : line.text}`);
    if (open) out.push(NO_EOL_NOTE);
  }
  return `${out.join('\n')}\n`;
}
