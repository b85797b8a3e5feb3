/**
 * The `sessions` subcommands, in the order the usage lists them. To add one (resume, fork...),
 * write its module beside these and add it here.
 */
import { forkSubcommand, resumeSubcommand } from './continue-subcommands';
import { treeSubcommand } from './tree';
import { diffSubcommand } from './diff';
import { deleteSubcommand, rebuildSubcommand, renameSubcommand, tagSubcommand } from './edit';
import { listSubcommand, searchSubcommand } from './list-search';
import { exportSubcommand, importSubcommand, showSubcommand } from './show-export';
import type { SessionsSubcommand } from './subcommand';

export type { SessionsSubcommand } from './subcommand';

export const sessionsSubcommands: SessionsSubcommand[] = [
  listSubcommand,
  searchSubcommand,
  showSubcommand,
  diffSubcommand,
  exportSubcommand,
  importSubcommand,
  renameSubcommand,
  tagSubcommand,
  deleteSubcommand,
  resumeSubcommand,
  forkSubcommand,
  treeSubcommand,
  rebuildSubcommand,
];
