/** `sessions tree ID`: the lineage of a session — its ancestors' root and every resume and fork below it. */
import { lineageLines, lineageTree } from '../../core/history/continue/lineage-tree';
import { parseCommandArgs } from '../args';
import { ExitCode } from '../exit-codes';
import { onlySessionId, withStore } from './common';
import type { SessionsSubcommand } from './subcommand';

export const treeSubcommand: SessionsSubcommand = {
  name: 'tree',
  synopsis: 'ID [--json]',
  summary: 'the lineage of a session: the tree of its resumes and forks (* marks ID)',
  async run(argv, io) {
    const args = parseCommandArgs(argv, {}, io.env);
    const id = onlySessionId(args.positionals);
    return withStore(args.paths.dataDir, io, 'tree', async (store) => {
      const tree = lineageTree(store, id);
      io.stdout(args.values.json ? `${JSON.stringify(tree)}\n` : `${lineageLines(tree).join('\n')}\n`);
      return ExitCode.ok;
    });
  },
};
