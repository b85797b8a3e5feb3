import { describe, expect, it } from 'vitest';
import type { FileCard } from './cards';
import { checkDocs, decodeDocs, docsOnDemand, encodeDocs, type DocRow } from './doc-columns';
import { ColumnReader, encodeFiles } from './file-columns';
import { FileTable } from './file-table';
import type { IndexedFile } from './indexed-file';

const file = (sessions: string[]): IndexedFile => ({
  size: 1,
  mtimeMs: 2,
  ino: 3,
  position: 1,
  lines: 1,
  torn: false,
  settled: true,
  imported: false,
  corruptLines: 0,
  card: { connectionId: 'c', startedAtMs: 0, agent: { label: 'a' }, sessions: sessions.map((id) => ({ id, firstT: 0, lastT: 1, turns: 1, files: 0 })) } as FileCard,
  detailAt: [0, 1],
});

const files = { 'a.jsonl': file(['A1']), 'b.jsonl': file(['B1', 'B2', 'B3']), 'c.jsonl': file([]) };
const docs: DocRow[] = [
  ['a.jsonl', 'A1', 120],
  null,
  ['b.jsonl', 'B3', 7],
  ['b.jsonl', 'B1', 0],
  // Not in the cards (never written so, but written by name if it were).
  ['b.jsonl', 'B9', 5],
  ['gone.jsonl', 'G1', 9],
];

/** Columns as they go through index.json, with the files they refer to. */
function written() {
  const table = FileTable.fromObjects(files);
  const columns = JSON.parse(JSON.stringify(encodeDocs(docs, table))) as ReturnType<typeof encodeDocs>;
  return { columns, reader: new ColumnReader(JSON.parse(JSON.stringify(table.toColumns())) as ReturnType<FileTable['toColumns']>) };
}

describe('the search documents as columns (index version 4)', () => {
  it('writes numbers for what the files columns hold and gives back the same rows', () => {
    const { columns, reader } = written();
    expect(columns).toEqual([0, 0, 120, -1, 0, 0, 1, 2, 7, 1, 0, 0, 1, 'B9', 5, 'gone.jsonl', 'G1', 9]);
    expect(decodeDocs(columns, reader)).toEqual(docs);
    expect(() => checkDocs(columns, reader)).not.toThrow();
  });

  it('refuses references the files columns do not have', () => {
    const { columns, reader } = written();
    const broken = (at: number, value: number | string) => () => checkDocs(columns.map((v, i) => (i === at ? value : v)), reader);
    expect(broken(0, 3)).toThrow(/no file/);
    expect(broken(1, 1)).toThrow(/no session/);
    expect(broken(7, 3)).toThrow(/no session/);
    expect(broken(16, 2)).toThrow(/no session/); // a session by position needs a file by position
    expect(broken(2, 'x')).toThrow(/word count/);
    expect(() => checkDocs(columns.slice(1), reader)).toThrow(/cut short/);
  });

  it('builds the rows when the snapshot’s docs are first read, once; a write before replaces them unread', () => {
    const { columns, reader } = written();
    const snapshot = { docs: [] as DocRow[] };
    docsOnDemand(snapshot, columns, reader);
    expect(Object.getOwnPropertyDescriptor(snapshot, 'docs')!.get).toBeDefined();
    const first = snapshot.docs;
    expect(first).toEqual(docs);
    expect(snapshot.docs).toBe(first);
    expect(Object.getOwnPropertyDescriptor(snapshot, 'docs')!.value).toBe(first);
    expect(JSON.stringify({ ...snapshot })).toBe(JSON.stringify({ docs }));

    const other = { docs: [] as DocRow[] };
    docsOnDemand(other, columns, reader);
    other.docs = [null];
    expect(other.docs).toEqual([null]);
  });
});
