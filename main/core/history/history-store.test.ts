import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeDocs, type DocColumns } from './doc-columns';
import { ColumnReader, decodeFiles, type FileColumns } from './file-columns';
import { HistoryError, HistoryStore } from './history-store';
import { deadAgents, header, sessionRecords, sessionTrace, tempDataDir, testId, traceText, writeTrace } from './testing/traces';

const FIXTURES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');
const open = (dataDir: string) => HistoryStore.open(dataDir, { alive: deadAgents });
const T0 = Date.UTC(2026, 4, 1, 9, 0, 0);

function fixtureDir(): string {
  const { dataDir, traces } = tempDataDir();
  cpSync(FIXTURES, traces, { recursive: true });
  return dataDir;
}

describe('the history index', () => {
  it('has one entry per session of the recorded fixtures, with what the traces say about it', async () => {
    const store = await open(fixtureDir());
    expect(store.size).toBe(13);
    const claude = store.get('01JDQ9000000000000000SESS1')!;
    expect(claude).toMatchObject({
      agentSessionId: 'claude-sess-1',
      agent: { id: 'claude-acp', label: 'Claude Code', version: '0.49.0' },
      cwd: '/work/proj',
      title: 'Fix the typo in README.md',
      turns: 1,
      stopReasons: { end_turn: 1 },
      lastStopReason: 'end_turn',
      status: 'ended',
      filesChanged: ['/work/proj/README.md'],
      toolCalls: 1,
      permissionRequests: 1,
      usage: { tokens: { inputTokens: 1000, outputTokens: 200, totalTokens: 1200 }, contextUsed: 1200, contextSize: 200000, cost: { amount: 0.0123, currency: 'USD' } },
      opened: 'created',
      corruptLines: 0,
      torn: false,
      imported: false,
    });
    expect(claude.trace.path).toBe(join(store.paths.traces, 'claude-agent-acp.jsonl'));
    // Created with its first record (the session/new request).
    expect(claude.createdAt).toBe('2026-11-29T10:00:00.311Z');
    // Two sessions on one connection, one forked from the other in a compare run.
    expect(store.get('01JDQ9000000000000000SESSB')).toMatchObject({ turns: 2, lineage: { runId: '01JDQ90000000000000000RUN1' } });
    expect(store.get('01JDQ9000000000000000SESSC')).toMatchObject({
      opened: 'forked',
      lineage: { parentSessionId: '01JDQ9000000000000000SESSB', forkPoint: { entryId: 'e2' } },
    });
    // The user's title from a session-meta record; a crash; a turn that failed.
    expect(store.get('01JDQ9000000000000000SESS8')!.title).toBe('main.py questions');
    expect(store.get('01JDQ9000000000000000SESSA')).toMatchObject({ status: 'crashed', turnErrors: 1, lastStopReason: null });
    await store.close();
  });

  it('lists newest first, filters by agent, folder, date, status, changes and tag, and resolves id prefixes', async () => {
    const { dataDir, traces } = tempDataDir();
    const ids = [0, 1, 2].map((i) => testId(T0 + i * 3600_000, `f${i}`));
    writeTrace(traces, 'c0', sessionTrace('c0', T0, [{ sessionId: ids[0]!, cwd: '/home/a/api', prompt: 'first' }]));
    writeTrace(traces, 'c1', sessionTrace('c1', T0 + 3600_000, [{ sessionId: ids[1]!, cwd: '/home/a/api/sub', prompt: 'second', tool: { title: 'Edit x', diff: { path: '/home/a/api/x.ts', oldText: 'a', newText: 'b' } } }], { header: { agent: { id: 'codex-acp', name: 'Codex' } } }));
    writeTrace(traces, 'c2', sessionTrace('c2', T0 + 7200_000, [{ sessionId: ids[2]!, cwd: '/home/a/web', prompt: 'third' }], { exit: false }));
    const store = await open(dataDir);
    const titles = (list: { title: string }[]) => list.map((e) => e.title);
    expect(titles(store.list())).toEqual(['third', 'second', 'first']);
    expect(titles(store.list({ order: 'oldest', limit: 2 }))).toEqual(['first', 'second']);
    expect(titles(store.list({ agent: 'cod' }))).toEqual([]);
    expect(titles(store.list({ agent: 'codex' }))).toEqual(['second']);
    expect(titles(store.list({ agent: 'Codex' }))).toEqual(['second']);
    expect(titles(store.list({ agent: 'codex-acp' }))).toEqual(['second']);
    expect(titles(store.list({ cwd: '/home/a/api' }))).toEqual(['second', 'first']);
    expect(titles(store.list({ cwd: '/home/a/ap' }))).toEqual([]);
    expect(titles(store.list({ since: T0 + 3000_000 }))).toEqual(['third', 'second']);
    expect(titles(store.list({ until: T0 + 3000_000 }))).toEqual(['first']);
    expect(titles(store.list({ status: 'interrupted' }))).toEqual(['third']);
    expect(titles(store.list({ hasChanges: true }))).toEqual(['second']);
    await store.tag(ids[0]!, { add: ['keep'] });
    expect(titles(store.list({ tag: 'KEEP' }))).toEqual(['first']);

    expect(store.resolve(ids[1]!.slice(0, 12).toLowerCase())).toMatchObject({ entry: { id: ids[1] } });
    expect(store.resolve(ids[0]!.slice(0, 4))).toMatchObject({ error: 'ambiguous' });
    expect(store.resolve('ZZZZ')).toEqual({ error: 'not-found' });
    expect(() => store.require(ids[0]!.slice(0, 4))).toThrow(/matches 3 sessions/);
    await store.close();
  });
});

describe('search', () => {
  async function storeWith(scripts: Parameters<typeof sessionTrace>[2][]) {
    const { dataDir, traces } = tempDataDir();
    scripts.forEach((s, i) => writeTrace(traces, `conn${i}`, sessionTrace(`conn${i}`, T0 + i * 1000, s)));
    return open(dataDir);
  }

  it('finds a word that appears only in a tool call output, and shows it there', async () => {
    const id = testId(T0, 'tool');
    const store = await storeWith([
      [{ sessionId: id, prompt: 'check the config', answer: 'All fine.', tool: { title: 'Read config.yml', output: 'retries: 3\nbackoff: quokkafactor 2.5\n' } }],
      [{ sessionId: testId(T0, 'other'), prompt: 'something else', answer: 'ok' }],
    ]);
    const r = await store.search('quokkafactor');
    expect(r.total).toBe(1);
    expect(r.hits[0]!.entry.id).toBe(id);
    expect(r.hits[0]!.fields).toEqual(['tool']);
    const snippet = r.hits[0]!.snippets[0]!;
    expect(snippet.field).toBe('tool');
    expect(snippet.highlights.map(([a, b]) => snippet.text.slice(a, b))).toEqual(['quokkafactor']);
    await store.close();
  });

  it('searches prompts, streamed answers, thoughts, terminal output and file paths', async () => {
    const id = testId(T0, 'all');
    const store = await storeWith([
      [
        {
          sessionId: id,
          prompt: 'Why is Zanzibar slow?',
          thought: 'pondering the meerkat',
          answer: 'Because of the supercalifragilistic cache.',
          chunk: 3,
          tool: { title: 'Open widget', path: '/work/proj/src/gizmos/widget.ts', output: 'x' },
          terminalOutput: 'PASS 12 tests (armadillo)\n',
        },
      ],
    ]);
    const fieldsOf = async (q: string) => (await store.search(q)).hits.map((h) => h.fields);
    expect(await fieldsOf('zanzibar')).toEqual([['prompt']]);
    expect(await fieldsOf('meerkat')).toEqual([['thought']]);
    // Streamed three characters at a time, still one word.
    expect(await fieldsOf('supercalifragilistic')).toEqual([['agent']]);
    expect(await fieldsOf('armadillo')).toEqual([['tool']]);
    expect(await fieldsOf('gizmos')).toEqual([['path']]);
    expect(await fieldsOf('widget')).toEqual([['tool', 'path']]);
    await store.close();
  });

  it('needs every word, takes a trailing * as a prefix, folds case and accents, and ranks prompts above logs', async () => {
    const a = testId(T0, 'a');
    const b = testId(T0, 'b');
    const store = await storeWith([
      [{ sessionId: a, prompt: 'Fix the flaky Café test', answer: 'done' }],
      [{ sessionId: b, prompt: 'unrelated', tool: { title: 'Run', output: 'one flaky line in a long log about cafe things and more things' } }],
    ]);
    expect((await store.search('flaky')).hits.map((h) => h.entry.id)).toEqual([a, b]);
    expect((await store.search('flaky cafe')).total).toBe(2);
    expect((await store.search('flaky unrelated')).hits.map((h) => h.entry.id)).toEqual([b]);
    expect((await store.search('flaky nowhere')).total).toBe(0);
    expect((await store.search('fla*')).total).toBe(2);
    expect((await store.search('fla')).total).toBe(0);
    expect((await store.search('CAFÉ')).total).toBe(2);
    expect((await store.search('flaky', { limit: 1 })).hits).toHaveLength(1);
    expect((await store.search('flaky', { limit: 1 })).total).toBe(2);
    await store.close();
  });

  it('finds sessions by their title, tags and agent, and filters hits like list', async () => {
    const a = testId(T0, 'ta');
    const store = await storeWith([[{ sessionId: a, prompt: 'hello' }], [{ sessionId: testId(T0, 'tb'), prompt: 'hello' }]]);
    await store.rename(a, 'Payments refactor');
    await store.tag(a, { add: ['release-blocker'] });
    expect((await store.search('refactor')).hits.map((h) => [h.entry.id, h.fields])).toEqual([[a, ['title']]]);
    expect((await store.search('blocker')).hits.map((h) => h.entry.id)).toEqual([a]);
    expect((await store.search('claude hello')).total).toBe(2);
    expect((await store.search('hello', { tag: 'release-blocker' })).hits.map((h) => h.entry.id)).toEqual([a]);
    await store.close();
  });
});

describe('keeping the index current', () => {
  it('reads only what was appended, and finds a session as soon as its lines are written', async () => {
    const { dataDir, traces } = tempDataDir();
    const store = await open(dataDir);
    expect(store.size).toBe(0);
    const id = testId(T0, 'live');
    const lines = [header('live', T0), { kind: 'spawn', t: 1, pid: 999999 }, ...sessionRecords({ sessionId: id, prompt: 'first question', answer: 'The answer mentions porcupines.' })];
    const path = writeTrace(traces, 'live', traceText(lines));
    expect((await store.search('porcupines')).hits.map((h) => h.entry.id)).toEqual([id]);
    expect(store.get(id)).toMatchObject({ turns: 1, status: 'interrupted' });

    // A second turn is appended while the agent runs; the answer arrives in pieces.
    const a = `agent-${id.slice(-6)}`;
    const tag = { sessionId: id, agentSessionId: a };
    const more = traceText([
      { kind: 'wire', t: 500, dir: 'out', ...tag, msg: { jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId: a, prompt: [{ type: 'text', text: 'second question' }] } } },
      { kind: 'wire', t: 501, dir: 'in', ...tag, msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: a, update: { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'Look at the hippopot' } } } } },
    ]);
    appendFileSync(path, more);
    const report = await store.refresh();
    expect(report).toMatchObject({ tracesRead: 1, bytesRead: Buffer.byteLength(more) });
    expect(store.get(id)!.turns).toBe(2);
    // The word is still being streamed: its first part is searchable already.
    expect((await store.search('hippopot*')).total).toBe(1);
    appendFileSync(
      path,
      traceText([{ kind: 'wire', t: 502, dir: 'in', ...tag, msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: a, update: { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'amus now.' } } } } }]),
    );
    expect((await store.search('hippopotamus')).total).toBe(1);
    // Half a line (the writer is mid-write) is left for later.
    appendFileSync(path, '{"kind":"wire","t":503,"dir":"in"');
    await store.refresh();
    expect(store.get(id)!.torn).toBe(true);
    appendFileSync(path, `,${JSON.stringify({ ...tag, msg: { jsonrpc: '2.0', id: 7, result: { stopReason: 'end_turn' } } }).slice(1)}\n`);
    await store.refresh();
    expect(store.get(id)).toMatchObject({ torn: false, stopReasons: { end_turn: 2 } });

    // Another process's view catches up from the saved index without reading the trace again.
    const other = await open(dataDir);
    expect(other.lastRefresh.tracesRead).toBe(0);
    expect(other.get(id)!.turns).toBe(2);
    await Promise.all([store.close(), other.close()]);
  });

  it('drops sessions whose trace is gone and re-reads a trace that was replaced', async () => {
    const { dataDir, traces } = tempDataDir();
    const a = testId(T0, 'gone');
    const b = testId(T0, 'repl');
    const pa = writeTrace(traces, 'ca', sessionTrace('ca', T0, [{ sessionId: a, answer: 'wombat' }]));
    writeTrace(traces, 'cb', sessionTrace('cb', T0, [{ sessionId: b, answer: 'numbat' }]));
    const store = await open(dataDir);
    rmSync(pa);
    writeTrace(traces, 'cb', sessionTrace('cb', T0, [{ sessionId: b, answer: 'x' }]));
    const r = await store.refresh();
    expect(r.tracesRemoved).toBe(1);
    expect(store.get(a)).toBeUndefined();
    expect((await store.search('wombat')).total).toBe(0);
    expect((await store.search('numbat')).total).toBe(0);
    await store.close();
  });
});

describe('the side file of details across catch-ups', () => {
  /** The snapshot's side file: its bytes, and the bytes its files' details take (each with its newline). */
  const sideFile = (dataDir: string) => {
    const dir = join(dataDir, 'history');
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { details: { name: string; bytes: number }; files: FileColumns };
    const files = Object.values(decodeFiles(index.files)).map((f) => f.detailAt!);
    const bytes = readFileSync(join(dir, index.details.name));
    const referenced = files.reduce((n, at) => n + at[1] + 1, 0);
    return { name: index.details.name, bytes, referenced, details: files.map((at) => bytes.subarray(at[0], at[0] + at[1]).toString('utf8')) };
  };

  it('appends the changed details to a copy of the previous side file, and writes it whole once a quarter of it is unreferenced', async () => {
    const { dataDir, traces } = tempDataDir();
    const ids = Array.from({ length: 8 }, (_, i) => testId(T0 + i * 60_000, `d${i}`));
    const paths = ids.map((id, i) => writeTrace(traces, `c${i}`, sessionTrace(`c${i}`, T0 + i * 60_000, [{ sessionId: id, prompt: `question ${i}`, answer: `answer about aardvark ${i}` }])));
    const store = await open(dataDir);
    const first = sideFile(dataDir);
    expect(first.bytes.length).toBe(first.referenced); // written whole: nothing unreferenced

    // A new session: the next side file is the previous one, byte for byte, plus its detail.
    const late = testId(T0 + 9 * 60_000, 'late');
    writeTrace(traces, 'late', sessionTrace('late', T0 + 9 * 60_000, [{ sessionId: late, prompt: 'late question', answer: 'a late aardvark' }]));
    await store.refresh();
    const second = sideFile(dataDir);
    expect(second.name).not.toBe(first.name);
    expect(second.bytes.subarray(0, first.bytes.length).equals(first.bytes)).toBe(true);
    expect(second.bytes.length).toBe(second.referenced);
    expect(store.get(late)).toMatchObject({ title: 'late question', turns: 1 });

    // Sessions removed one by one: their details stay in the copies until a quarter is unreferenced.
    const shares: number[] = [];
    let compacted = false;
    for (const path of paths.slice(0, 6)) {
      const before = sideFile(dataDir);
      rmSync(path);
      await store.refresh();
      const now = sideFile(dataDir);
      shares.push(1 - now.referenced / now.bytes.length);
      if (now.bytes.length < before.bytes.length) compacted = true;
      else expect(now.bytes.equals(before.bytes)).toBe(true); // copied as it was: nothing to append
    }
    expect(compacted).toBe(true);
    expect(Math.max(...shares)).toBeLessThanOrEqual(0.25);
    expect(shares.some((s) => s > 0)).toBe(true);

    // Another process reads every remaining detail from the extended or compacted file.
    const other = await open(dataDir);
    expect(other.lastRefresh.tracesRead).toBe(0);
    for (const id of [...ids.slice(6), late]) expect(other.get(id)).toEqual(store.get(id));
    expect((await other.search('aardvark')).hits.map((h) => h.entry.id).sort()).toEqual([...ids.slice(6), late].sort());
    expect(sideFile(dataDir).details.every((d) => JSON.parse(d) !== null)).toBe(true);
    await Promise.all([store.close(), other.close()]);
  });
});

describe('damaged traces and a damaged index', () => {
  it('neither a torn or corrupt trace nor a file that is no trace hides the other sessions or the readable part', async () => {
    const { dataDir, traces } = tempDataDir();
    const good = testId(T0, 'good');
    const hurt = testId(T0, 'hurt');
    writeTrace(traces, 'good', sessionTrace('good', T0, [{ sessionId: good, answer: 'healthy aardvark' }]));
    const lines = sessionTrace('hurt', T0, [{ sessionId: hurt, prompt: 'before the damage', answer: 'after the damage ocelot' }], { exit: false }).split('\n');
    lines.splice(5, 0, 'this is not json', '{"kind":"teleport","t":3}');
    writeFileSync(join(traces, 'hurt.jsonl'), `${lines.join('\n')}{"kind":"wire","t":99,"dir":"in","msg":{"jsonrp`);
    writeFileSync(join(traces, 'notes.jsonl'), 'hello\nworld\n');
    writeFileSync(join(traces, 'empty.jsonl'), '');
    writeFileSync(join(traces, 'binary.jsonl'), Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0xc3]));
    const store = await open(dataDir);
    expect(store.list().map((e) => e.id).sort()).toEqual([good, hurt].sort());
    expect(store.get(hurt)).toMatchObject({ title: 'before the damage', turns: 1, stopReasons: { end_turn: 1 }, corruptLines: 2, torn: true });
    expect((await store.search('ocelot')).hits.map((h) => h.entry.id)).toEqual([hurt]);
    expect((await store.search('aardvark')).hits.map((h) => h.entry.id)).toEqual([good]);
    const md = await store.export(hurt, 'md');
    expect(md.text).toContain('after the damage ocelot');
    expect(md.warnings.join('\n')).toMatch(/2 corrupt line\(s\) left out.*\n.*torn/);
    await store.close();
  });

  it('rebuilds a deleted, corrupt or stale index from the traces with the same entries and search results', async () => {
    const dataDir = fixtureDir();
    const first = await open(dataDir);
    expect(first.lastRefresh.rebuilt).toBe('the index is missing');
    await first.rename('01JDQ9000000000000000SESS3', 'License work');
    const entries = first.list();
    const hits = async (s: HistoryStore) => (await s.search('the')).hits.map((h) => [h.entry.id, h.score, h.fields]);
    const expected = await hits(first);
    await first.close();
    const paths = first.paths;

    const check = async (damage: () => void, reason: RegExp) => {
      damage();
      const again = await open(dataDir);
      expect(again.lastRefresh.rebuilt).toMatch(reason);
      expect(again.list()).toEqual(entries);
      expect(await hits(again)).toEqual(expected);
      await again.close();
    };
    await check(() => rmSync(paths.index), /missing/);
    await check(() => writeFileSync(paths.index, '{"format":"acp-workbench-history-index","vers'), /could not be read/);
    await check(() => writeFileSync(paths.index, JSON.stringify({ format: 'acp-workbench-history-index', version: 999 })), /version 999/);
    await check(() => {
      const seg = readdirSync(paths.segments).find((n) => n.endsWith('.idx'))!;
      truncateSync(join(paths.segments, seg), 100);
    }, /segment/);
    await check(() => rmSync(paths.segments, { recursive: true }), /ENOENT|could not be read/);
    await check(() => writeFileSync(paths.index, JSON.stringify({ ...JSON.parse(readFileSync(paths.index, 'utf8')), details: null })), /index fields missing/);
    const sideFile = () => join(paths.dir, readdirSync(paths.dir).find((n) => n.startsWith('details-'))!);
    await check(() => truncateSync(sideFile(), 10), /details-.*bytes, the index expects/);
    await check(() => rmSync(sideFile()), /ENOENT|could not be read/);
    // The user's rename lives in the journal, which a rebuild does not touch.
    expect(entries.find((e) => e.id === '01JDQ9000000000000000SESS3')!.title).toBe('License work');
  });

  /** The snapshot as written (version 4), its files' table and documents as before version 4. */
  const snapshotOf = (path: string) => {
    const v4 = JSON.parse(readFileSync(path, 'utf8')) as { version: number; details?: { name: string }; files: unknown; docs: DocColumns };
    const docs = decodeDocs(v4.docs, new ColumnReader(v4.files as FileColumns));
    return { ...v4, files: decodeFiles(v4.files as FileColumns) as Record<string, { detailAt?: [number, number] | null; detail?: string }>, docs };
  };

  /** A current index of the fixture traces (one session tagged), with what it lists and finds for "the". */
  const indexed = async () => {
    const dataDir = fixtureDir();
    const first = await open(dataDir);
    await first.tag('01JDQ9000000000000000SESS3', { add: ['kept'] });
    const entries = first.list();
    const expected = await hits(first);
    await first.close();
    return { dataDir, entries, expected, paths: first.paths };
  };
  const hits = async (s: HistoryStore) => (await s.search('the')).hits.map((h) => [h.entry.id, h.score, h.fields, h.snippets]);

  it('converts an index of version 3 (an object per file) without reading the traces again: same entries and search results', async () => {
    const { dataDir, entries, expected, paths } = await indexed();
    const v4text = readFileSync(paths.index, 'utf8');

    // The version-3 layout: the files' table as an object per file.
    const v3 = snapshotOf(paths.index);
    v3.version = 3;
    writeFileSync(paths.index, JSON.stringify(v3));
    const segments = readdirSync(paths.segments);
    const side = readFileSync(join(paths.dir, v3.details!.name));

    const again = await open(dataDir);
    expect(again.lastRefresh).toMatchObject({ tracesRead: 0, bytesRead: 0, converted: 'index version 3 converted to version 4' });
    expect(again.lastRefresh.rebuilt).toBeUndefined();
    expect(again.list()).toEqual(entries);
    expect(await hits(again)).toEqual(expected);
    await again.close();
    // Written as version 4 at once: the same snapshot as before (but for when it was written), the same segments and details.
    const written = JSON.parse(readFileSync(paths.index, 'utf8')) as { version: number; writtenAt: string; details: { name: string } };
    const before = JSON.parse(v4text) as typeof written;
    expect(written.version).toBe(4);
    expect({ ...written, writtenAt: '', details: null }).toEqual({ ...before, writtenAt: '', details: null });
    expect(readdirSync(paths.segments)).toEqual(segments);
    expect(readFileSync(join(paths.dir, written.details.name)).equals(side)).toBe(true);

    const third = await open(dataDir);
    expect(third.lastRefresh).toEqual({ tracesRead: 0, bytesRead: 0, tracesRemoved: 0 });
    expect(third.list()).toEqual(entries);
    await third.close();
  });

  it('converts an index of version 2 (details inline) without reading the traces again: same entries and search results', async () => {
    const { dataDir, entries, expected, paths } = await indexed();

    // The version-2 layout: an object per file with its detail as JSON text inside index.json, no side file.
    const v2 = snapshotOf(paths.index);
    const side = readFileSync(join(paths.dir, v2.details!.name));
    for (const f of Object.values(v2.files)) {
      f.detail = side.subarray(f.detailAt![0], f.detailAt![0] + f.detailAt![1]).toString('utf8');
      delete f.detailAt;
    }
    delete v2.details;
    v2.version = 2;
    writeFileSync(paths.index, JSON.stringify(v2));
    rmSync(join(paths.dir, readdirSync(paths.dir).find((n) => n.startsWith('details-'))!));
    const segments = readdirSync(paths.segments);

    const again = await open(dataDir);
    expect(again.lastRefresh).toMatchObject({ tracesRead: 0, bytesRead: 0, converted: 'index version 2 converted to version 4' });
    expect(again.lastRefresh.rebuilt).toBeUndefined();
    expect(again.list()).toEqual(entries);
    expect(await hits(again)).toEqual(expected);
    await again.close();
    // Written as version 4 at once: same segments, a new side file holding the same details.
    const written = snapshotOf(paths.index);
    expect(written.version).toBe(4);
    expect(readdirSync(paths.segments)).toEqual(segments);
    const newSide = readFileSync(join(paths.dir, written.details!.name));
    expect(Object.values(written.files).map((f) => newSide.subarray(f.detailAt![0], f.detailAt![0] + f.detailAt![1]).toString('utf8'))).toEqual(Object.values(v2.files).map((f) => f.detail));

    // The next process finds nothing to convert or read.
    const third = await open(dataDir);
    expect(third.lastRefresh).toEqual({ tracesRead: 0, bytesRead: 0, tracesRemoved: 0 });
    expect(third.list()).toEqual(entries);
    await third.close();
  });
});

describe('the user’s metadata', () => {
  it('renames and tags through the journal, seen by every process, over the trace’s own metadata', async () => {
    const dataDir = fixtureDir();
    const a = await open(dataDir);
    const b = await open(dataDir);
    const id = '01JDQ9000000000000000SESS8';
    expect(a.get(id)!.title).toBe('main.py questions');
    expect(a.get(id)!.tags).toEqual(['demo', 'python']);
    await a.rename(id.toLowerCase(), 'Questions about main.py');
    await a.tag(id, { add: ['keep', 'demo'] });
    await b.tag(id, { remove: ['python'] });
    await b.refresh();
    expect(b.get(id)).toMatchObject({ title: 'Questions about main.py', userTitle: 'Questions about main.py', tags: ['demo', 'keep'] });
    await a.rename(id, null);
    await b.refresh();
    // Cleared: back to what the agent or the first prompt says.
    expect(b.get(id)!.userTitle).toBeUndefined();
    expect(readFileSync(a.paths.journal, 'utf8').trim().split('\n')).toHaveLength(4);
    await expect(a.tag(id, {})).rejects.toThrow(HistoryError);
    await Promise.all([a.close(), b.close()]);
  });

  it('deletes a session: its trace goes to the trash when nothing else is in it, never another session’s data', async () => {
    const dataDir = fixtureDir();
    const store = await open(dataDir);
    const single = await store.delete('01JDQ9000000000000000SESS1');
    expect(single.trashed).toEqual([join(dataDir, 'trash', 'claude-agent-acp.jsonl')]);
    expect(existsSync(join(store.paths.traces, 'claude-agent-acp.jsonl'))).toBe(false);
    expect(store.get('01JDQ9000000000000000SESS1')).toBeUndefined();
    expect((await store.search('typo')).total).toBe(0);

    const b = await store.delete('01JDQ9000000000000000SESSB');
    expect(b).toMatchObject({ trashed: [], kept: [join(store.paths.traces, 'multi-session.jsonl')] });
    expect(store.get('01JDQ9000000000000000SESSC')).toBeDefined();
    expect((await store.search('answer two')).hits.map((h) => h.entry.id)).toEqual(['01JDQ9000000000000000SESSC']);
    expect((await store.search('answer one')).total).toBe(0);
    const c = await store.delete('01JDQ9000000000000000SESSC');
    expect(c.trashed).toEqual([join(dataDir, 'trash', 'multi-session.jsonl')]);
    expect(store.size).toBe(10);
    await store.close();

    // A rebuild keeps them deleted.
    rmSync(store.paths.index);
    const again = await open(dataDir);
    expect(again.size).toBe(10);
    await again.close();
  });

  it('refuses to delete a running session unless forced, and then keeps its trace', async () => {
    const { dataDir, traces } = tempDataDir();
    const id = testId(T0, 'run');
    writeTrace(traces, 'run', sessionTrace('run', T0, [{ sessionId: id }], { exit: false }));
    const store = await HistoryStore.open(dataDir, { alive: () => true });
    expect(store.get(id)!.status).toBe('running');
    await expect(store.delete(id)).rejects.toMatchObject({ code: 'running' });
    expect(await store.delete(id, { force: true })).toMatchObject({ trashed: [], kept: [join(traces, 'run.jsonl')] });
    expect(store.size).toBe(0);
    await store.close();
  });
});

describe('export and import', () => {
  it('exports a session as its trace, which imports into another history as the same session, once', async () => {
    const source = await open(fixtureDir());
    const exported = await source.export('01JDQ9000000000000000SESSC', 'jsonl');
    const lines = exported.text.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; sessionId?: string });
    expect(lines[0]!.kind).toBe('header');
    expect(new Set(lines.map((l) => l.sessionId).filter(Boolean))).toEqual(new Set(['01JDQ9000000000000000SESSC']));
    expect(lines.some((l) => l.kind === 'exit')).toBe(true);
    // Byte for byte the recorded lines.
    const original = readFileSync(join(FIXTURES, 'multi-session.jsonl'), 'utf8').split('\n');
    for (const l of exported.text.trim().split('\n')) expect(original).toContain(l);

    const { dataDir } = tempDataDir();
    const file = join(dataDir, 'export.jsonl');
    writeFileSync(file, exported.text);
    const target = await open(dataDir);
    const first = await target.importTrace(file);
    expect(first.traces).toMatchObject([{ connectionId: '01JDQ9000000000000000CONNB', duplicate: false, sessions: [{ id: '01JDQ9000000000000000SESSC', status: 'added' }] }]);
    const want = source.get('01JDQ9000000000000000SESSC')!;
    expect(target.get('01JDQ9000000000000000SESSC')).toMatchObject({ title: want.title, turns: want.turns, lineage: want.lineage, imported: true, status: 'ended' });
    expect((await target.importTrace(file)).traces[0]).toMatchObject({ duplicate: true, sessions: [{ status: 'present' }] });
    // A trace already recorded in this history is recognised too.
    expect((await source.importTrace(join(FIXTURES, 'codex.jsonl'))).traces[0]).toMatchObject({ duplicate: true, sessions: [{ status: 'present' }] });
    expect(readdirSync(target.paths.traces)).toHaveLength(1);
    await Promise.all([source.close(), target.close()]);
  });

  it('says which trace is gone when a session’s trace was deleted by hand, instead of a bare ENOENT', async () => {
    const { dataDir, traces } = tempDataDir();
    const id = testId(T0, 'gone');
    writeTrace(traces, 'gone', sessionTrace('gone', T0, [{ sessionId: id }]));
    const store = await HistoryStore.open(dataDir);
    rmSync(join(traces, 'gone.jsonl'));
    await expect(store.export(id, 'md')).rejects.toThrow(`its trace file ${join(traces, 'gone.jsonl')} is gone (moved or deleted outside the workbench)`);
    await store.close();
  });

  it('brings a deleted session back when its trace is imported again', async () => {
    const store = await open(fixtureDir());
    const file = join(store.paths.dataDir, 'codex.jsonl');
    writeFileSync(file, (await store.export('01JDQ9000000000000000SESS3', 'jsonl')).text);
    await store.delete('01JDQ9000000000000000SESS3');
    const r = await store.importTrace(file);
    expect(r.traces[0]!.sessions).toEqual([{ id: '01JDQ9000000000000000SESS3', status: 'restored' }]);
    expect(store.get('01JDQ9000000000000000SESS3')!.title).toBe('Add a license header to app.ts');
    await store.close();
  });

  it('exports Markdown with diffs and tool output, and JSON transcript entries', async () => {
    const store = await open(fixtureDir());
    const md = (await store.export('01JDQ9000000000000000SESS1', 'md')).text;
    expect(md).toMatch(/^# Fix the typo in README\.md\n/);
    expect(md).toContain('| Agent | Claude Code 0.49.0 |');
    expect(md).toContain('### User\n\nFix the typo in README.md');
    expect(md).toContain('#### Tool: Edit \\`README.md\\`');
    expect(md).toContain('```diff\n@@ -1,1 +1,1 @@\n-# teh project\n+# the project\n```');
    expect(md).toContain('Permission: **Allow (allow_once)** by user');
    const term = (await store.export('01JDQ9000000000000000SESS2', 'md')).text;
    expect(term).toMatch(/Terminal `[^`]+`[^\n]*:\n\n```\n/);

    const json = JSON.parse((await store.export('01JDQ9000000000000000SESS1', 'json')).text) as {
      format: string;
      session: { id: string };
      transcripts: Array<{ connectionId: string; entries: Array<{ id: string; kind: string }> }>;
    };
    expect(json.format).toBe('acp-workbench-session');
    expect(json.session.id).toBe('01JDQ9000000000000000SESS1');
    expect(json.transcripts[0]!.connectionId).toBe('01JDQ9000000000000000CONN1');
    expect(json.transcripts[0]!.entries.map((e) => e.kind)).toEqual(['available_commands', 'user_message', 'thought', 'agent_message', 'tool_call', 'plan', 'agent_message', 'usage', 'turn_end']);
    await store.close();
  });

  it('refuses a file that is not a trace, with the reason', async () => {
    const store = await open(fixtureDir());
    const file = join(store.paths.dataDir, 'notes.txt');
    writeFileSync(file, 'just some notes\n');
    await expect(store.importTrace(file)).rejects.toThrow(/notes\.txt is not an acp-workbench trace: not JSON/);
    await expect(store.importTrace(join(store.paths.dataDir, 'missing.jsonl'))).rejects.toThrow(/cannot read .*ENOENT/);
    await store.close();
  });

  it('exports and imports a session recorded over several connections as a bundle', async () => {
    const { dataDir, traces } = tempDataDir();
    const id = testId(T0, 'resumed');
    writeTrace(traces, 'r1', sessionTrace('r1', T0, [{ sessionId: id, prompt: 'part one', answer: 'tapir' }]));
    writeTrace(traces, 'r2', sessionTrace('r2', T0 + 60_000, [{ sessionId: id, prompt: 'part two', answer: 'okapi' }]));
    const store = await open(dataDir);
    expect(store.size).toBe(1);
    expect(store.get(id)).toMatchObject({ turns: 2, title: 'part one', traces: [{ connectionId: 'r1' }, { connectionId: 'r2' }] });
    expect((await store.search('tapir okapi')).total).toBe(1);
    const bundle = (await store.export(id, 'jsonl')).text;
    expect(bundle.split('\n').filter((l) => l.includes('"kind":"header"'))).toHaveLength(2);
    const other = tempDataDir();
    writeFileSync(join(other.dataDir, 'b.jsonl'), bundle);
    const target = await open(other.dataDir);
    const r = await target.importTrace(join(other.dataDir, 'b.jsonl'));
    expect(r.traces.map((t) => t.connectionId)).toEqual(['r1', 'r2']);
    expect(target.get(id)).toMatchObject({ turns: 2, imported: true });
    await Promise.all([store.close(), target.close()]);
  });
});
