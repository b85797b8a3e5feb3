/**
 * The snapshot's search documents in index.json (version 4): three values per document instead of
 * an array of two strings and a number — the trace file's position in the files columns, the
 * session's place in that file's card, and its word count; a dead document is `-1, 0, 0`. The names
 * and ids are the files columns' own strings, so nothing but numbers is parsed for 10,000 documents,
 * and the `DocRow`s are built only when something asks for them (a search's corpus statistics, a
 * catch-up) — a warm start never does. A file or session the columns do not have (never written so)
 * is written by name.
 */
import type { ColumnReader } from './file-columns';
import type { FileTable } from './file-table';

/** docId → [trace file name, session id, words]; null once the file is gone or re-read. */
export type DocRow = [string, string, number] | null;

export type DocColumns = Array<number | string>;

/** The documents as written next to `files.toColumns()` (whose file order is `files.names()`). */
export function encodeDocs(docs: readonly DocRow[], files: FileTable): DocColumns {
  const position = new Map<string, number>();
  files.names().forEach((name, i) => position.set(name, i));
  const out: DocColumns = [];
  for (const d of docs) {
    if (!d) {
      out.push(-1, 0, 0);
      continue;
    }
    const [name, sessionId, words] = d;
    const i = position.get(name);
    let k: number | string = sessionId;
    if (i !== undefined) files.sessions(name, (id, _first, _last, at) => {
      if (id === sessionId && typeof k === 'string') k = at;
    });
    out.push(i ?? name, k, words);
  }
  return out;
}

/** The documents of columns read with the files columns `files`; throws on a reference they do not have. */
export function decodeDocs(columns: DocColumns, files: ColumnReader): DocRow[] {
  const docs: DocRow[] = [];
  walkDocs(columns, files, (d) => docs.push(d));
  return docs;
}

/** Throws unless every document's references resolve (checked when the index is read; decoding is later). */
export function checkDocs(columns: DocColumns, files: ColumnReader): void {
  walkDocs(columns, files);
}

function walkDocs(columns: DocColumns, files: ColumnReader, take?: (d: DocRow) => void): void {
  if (columns.length % 3 !== 0) throw new Error('documents cut short');
  for (let at = 0; at < columns.length; at += 3) {
    const file = columns[at]!;
    const session = columns[at + 1]!;
    const words = columns[at + 2]!;
    if (file === -1) {
      take?.(null);
      continue;
    }
    if (typeof words !== 'number') throw new Error(`document ${at / 3}: no word count`);
    let name: string;
    if (typeof file === 'string') name = file;
    else if (Number.isInteger(file) && file >= 0 && file < files.length) name = files.name(file);
    else throw new Error(`document ${at / 3}: no file ${file}`);
    let sessionId: string;
    if (typeof session === 'string') sessionId = session;
    else if (typeof file === 'number' && Number.isInteger(session) && session >= 0 && session < files.sessionCount(file)) sessionId = files.sessionId(files.first(file) + session);
    else throw new Error(`document ${at / 3}: no session ${session}`);
    take?.([name, sessionId, words]);
  }
}

/**
 * Makes `snapshot.docs` the documents decoded from `columns` when first read (then a plain array
 * property, as any snapshot's); setting it first replaces them unread.
 */
export function docsOnDemand(snapshot: { docs: DocRow[] }, columns: DocColumns, files: ColumnReader): void {
  const settle = (docs: DocRow[]) => Object.defineProperty(snapshot, 'docs', { value: docs, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(snapshot, 'docs', {
    enumerable: true,
    configurable: true,
    get: () => {
      const docs = decodeDocs(columns, files);
      settle(docs);
      return docs;
    },
    set: (docs: DocRow[]) => settle(docs),
  });
}
