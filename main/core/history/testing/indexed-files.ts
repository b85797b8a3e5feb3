/** Tests' helper: the files' table of an index caught up with the traces `fill` writes, as objects. */
import { HistoryIndex, type IndexedFile } from '../history-index';
import { historyPaths } from '../history-paths';
import { tempDataDir } from './traces';

export async function indexedFiles(fill: (traces: string) => void): Promise<Record<string, IndexedFile>> {
  const { dataDir, traces } = tempDataDir();
  fill(traces);
  const index = new HistoryIndex(historyPaths(dataDir), { foldWorker: null });
  await index.catchUp();
  const table = index.snapshot.files;
  const files = Object.fromEntries(table.names().map((name) => [name, table.get(name)!]));
  await index.close();
  return files;
}
