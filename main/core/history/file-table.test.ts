import { describe, expect, it } from 'vitest';
import { generateSessions } from '../../../bench/generate-sessions';
import type { Row } from './entries';
import { buildRows, lightFields, needsDetail } from './entries';
import { encodeFiles, type FileColumns } from './file-columns';
import { FileTable } from './file-table';
import type { IndexedFile } from './history-index';
import { indexedFiles } from './testing/indexed-files';

/** The files of an index caught up with 60 generated sessions (some connections hold two), as objects. */
function generatedFiles(): Promise<Record<string, IndexedFile>> {
  return indexedFiles((traces) => generateSessions({ dir: traces, count: 60, seed: 17, sizeScale: 0.05, twoSessionsEvery: 7 }));
}

/** As JSON goes in and out of index.json. */
const written = (c: FileColumns) => JSON.parse(JSON.stringify(c)) as FileColumns;

/** Rows as plain values: what every piece says, the lazy parts asked for. */
const plainRows = (rows: Map<string, Row>) =>
  [...rows.values()].map((r) => ({ id: r.id, createdMs: r.createdMs, updatedMs: r.updatedMs, pieces: r.pieces.map((p) => ({ file: p.file, f: p.f, card: p.card, startMs: p.startMs, endMs: p.endMs })) }));

describe('the files table read as columns', () => {
  it('answers what a warm start needs without building any file, and builds equal ones when asked', async () => {
    const files = await generatedFiles();
    const table = FileTable.fromColumns(written(encodeFiles(files)));
    const names = Object.keys(files);
    expect(table.names()).toEqual(names);
    expect(table.size).toBe(names.length);
    for (const name of names) {
      const f = files[name]!;
      expect(table.settled(name)).toBe(f.settled);
      expect(table.imported(name)).toBe(f.imported);
      expect(table.connectionId(name)).toBe(f.card.connectionId);
      expect(table.startedAtMs(name)).toBe(f.card.startedAtMs);
      const seen: unknown[] = [];
      table.sessions(name, (id, firstT, lastT, k) => seen.push({ id, firstT, lastT, k }));
      expect(seen).toEqual(f.card.sessions.map((s, k) => ({ id: s.id, firstT: s.firstT, lastT: s.lastT, k })));
      expect(table.agent(name)).toEqual(f.card.agent);
      expect([table.launchCwd(name), table.ended(name), table.pid(name)]).toEqual([f.card.launchCwd, f.card.ended, f.card.pid]);
      f.card.sessions.forEach((s, k) => {
        for (const field of ['cwd', 'opened', 'turns', 'files', 'meta'] as const) expect(table.session(name, k, field)).toBe(s[field]);
      });
    }
    expect(table.settled('nope.jsonl')).toBeUndefined();
    expect(table.built()).toEqual([]);
    expect(table.unbuiltDetailBytes()).toBe(Object.values(files).reduce((n, f) => n + f.detailAt![1] + 1, 0));

    const one = names[3]!;
    expect(table.get(one)).toStrictEqual(files[one]);
    expect(table.get(one)).toBe(table.get(one)); // built once, then the same object (the index mutates it)
    expect(table.built()).toHaveLength(1);
    expect(table.values()).toStrictEqual(Object.values(files));
  });

  it('builds the same rows from columns as from objects, and builds no file doing so', async () => {
    const files = await generatedFiles();
    const journal = new Map([[Object.values(files)[5]!.card.sessions[0]!.id, { tagOps: [], deleted: { atMs: 1 } }]]);
    const fromObjects = buildRows(FileTable.fromObjects(files), journal);
    const lazy = FileTable.fromColumns(written(encodeFiles(files)));
    const fromColumns = buildRows(lazy, journal);
    expect(lazy.built()).toEqual([]);
    expect([...fromColumns.rows.keys()]).toEqual([...fromObjects.rows.keys()]);
    expect(fromColumns.deleted).toEqual(fromObjects.deleted);
    expect(plainRows(fromColumns.rows)).toStrictEqual(plainRows(fromObjects.rows));
    expect(fromColumns.rows.size).toBeGreaterThan(50);
    // What lists, filters and search read of the rows: the same, and still no file built.
    const light = (rows: Map<string, Row>) => [...rows.values()].map((r) => [lightFields(r, (pid) => pid % 2 === 0), needsDetail(r, undefined)]);
    const lazyAgain = FileTable.fromColumns(written(encodeFiles(files)));
    expect(light(buildRows(lazyAgain, journal).rows)).toStrictEqual(light(fromObjects.rows));
    expect(lazyAgain.built()).toEqual([]);
    expect([...fromColumns.rows.values()].some((r) => r.pieces.length > 1 || r.pieces[0]!.card !== r.pieces[0]!.f.card.sessions[0])).toBe(true);
  });

  it('keeps rows readable while a catch-up changes the table under them, as rows of objects were', async () => {
    const files = await generatedFiles();
    const table = FileTable.fromColumns(written(encodeFiles(files)));
    const rows = buildRows(table, new Map()).rows;
    const names = Object.keys(files);
    const built = table.get(names[0]!)!;
    // A catch-up (between two of its awaits) forgets one file, replaces another; a list runs meanwhile.
    table.delete(names[1]!);
    table.set(names[0]!, { ...built, position: built.position + 1 });
    const pieceOf = (name: string) => [...rows.values()].flatMap((r) => r.pieces).find((p) => p.file === name)!;
    expect(pieceOf(names[1]!).f).toStrictEqual(files[names[1]!]);
    expect(pieceOf(names[1]!).agent).toEqual(files[names[1]!]!.card.agent);
    expect(pieceOf(names[0]!).f).toBe(built);
    for (const r of rows.values()) expect(() => [lightFields(r, () => false), needsDetail(r, undefined)]).not.toThrow();
  });

  it('writes files never built as they were read, and changed ones as they are now', async () => {
    const files = await generatedFiles();
    const table = FileTable.fromColumns(written(encodeFiles(files)));
    const names = Object.keys(files);
    // One file changed, one removed, one added; the rest never built.
    const changed = table.get(names[2]!)!;
    changed.position += 10;
    changed.card.sessions[0]!.turns += 1;
    table.delete(names[4]!);
    const added = { ...files[names[0]!]!, card: { ...files[names[0]!]!.card, connectionId: 'elsewhere' } };
    table.set('added.jsonl', added);
    const expected: Record<string, IndexedFile> = {};
    for (const name of table.names()) expected[name] = name === names[2] ? changed : name === 'added.jsonl' ? added : files[name]!;
    expect(written(table.toColumns())).toEqual(written(encodeFiles(expected)));
    expect(table.built()).toEqual([changed, added]);
  });
});
