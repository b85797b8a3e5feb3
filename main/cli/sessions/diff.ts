/**
 * `sessions diff ID`: what a recorded session did to each file, read from its trace — as a patch
 * (paths relative to the session's folder, so `git apply` there applies it), `--stat` (a line per
 * file), or `--json` (each file's texts). For reviewing an agent's work, or carrying it to another
 * checkout, without starting the agent again.
 */
import { unifiedDiff } from '../../../common/diff/unified-diff';
import { patchPath, sessionPatch } from '../../../common/diff/session-patch';
import { fileDiffs, type FileDiff } from '../../../common/transcript/file-diffs';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import { sessionRecords } from '../../core/history/continue/lineage-records';
import { parseCommandArgs } from '../args';
import { ExitCode } from '../exit-codes';
import { onlySessionId, withStore } from './common';
import type { SessionsSubcommand } from './subcommand';

function notes(file: FileDiff): string[] {
  return [
    ...(file.oldText === null ? ['new'] : []),
    ...(file.writes > 1 ? [`${file.writes} writes`] : []),
    ...(file.failed > 0 ? [`${file.failed} failed`] : []),
    ...(file.exact ? [] : ['text before the first write not recorded']),
  ];
}

export const diffSubcommand: SessionsSubcommand = {
  name: 'diff',
  synopsis: 'ID [--stat] [--json]',
  summary: 'the files a session changed, as a patch (`git apply` in its folder applies it); --stat: a line per file',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { stat: { type: 'boolean' } }, io.env);
    const id = onlySessionId(args.positionals);
    return withStore(args.paths.dataDir, io, 'diff', async (store) => {
      const entry = store.require(id);
      const files = fileDiffs(rebuildTranscript((await sessionRecords(store, entry.id)).records));
      const warn = (text: string) => io.stderr(`acp-workbench sessions diff: ${text}\n`);
      if (args.values.json) {
        for (const file of files) {
          const counts = unifiedDiff(file.oldText, file.newText, { maxLines: 0 });
          const rel = patchPath(file.path, entry.cwd);
          io.stdout(`${JSON.stringify({ type: 'file', ...file, ...(rel !== null ? { relativePath: rel } : {}), added: counts.added, removed: counts.removed })}\n`);
        }
        return ExitCode.ok;
      }
      if (files.length === 0) {
        warn(`session ${entry.id} changed no files`);
        return ExitCode.ok;
      }
      if (args.values.stat) {
        let added = 0;
        let removed = 0;
        const rows = files.map((file) => {
          const counts = unifiedDiff(file.oldText, file.newText, { maxLines: 0 });
          added += counts.added;
          removed += counts.removed;
          const extra = notes(file);
          return [`+${counts.added}`, `-${counts.removed}`, `${patchPath(file.path, entry.cwd) ?? file.path}${extra.length ? `  (${extra.join(', ')})` : ''}`];
        });
        const w0 = Math.max(...rows.map((r) => r[0]!.length));
        const w1 = Math.max(...rows.map((r) => r[1]!.length));
        for (const [a, r, p] of rows) io.stdout(`${a!.padStart(w0)} ${r!.padStart(w1)}  ${p}\n`);
        io.stdout(`${files.length} file${files.length === 1 ? '' : 's'} changed, +${added} -${removed}\n`);
        return ExitCode.ok;
      }
      for (const file of files) {
        const rel = patchPath(file.path, entry.cwd);
        if (rel === null) warn(`${file.path} is outside the session's folder (${entry.cwd ?? 'unknown'}): its patch names it from the file system's root`);
        if (!file.exact) warn(`${rel ?? file.path}: the text before the agent's first write was not recorded; its patch starts at a later write and may not apply`);
      }
      io.stdout(sessionPatch(files, entry.cwd));
      return ExitCode.ok;
    });
  },
};
