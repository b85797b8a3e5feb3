import { isAscii } from 'node:buffer';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceItem } from '../../../common/trace/parse';
import { foldTraceFile } from './fold-file';
import { HistoryStore } from './history-store';
import { TraceHints, type LineHint } from './line-hints';
import { LineSkeleton, SKELETON_MIN_STRING } from './line-skeleton';
import { FIRST_VIEW_BYTES, RawJsonText } from './raw-json-text';
import { parseQuery } from './search';
import { cutSnippet, snippetsFor } from './snippets';
import { ReadBuffer, readTraceTail, readTraceTailInto } from './tail-reader';
import { deadAgents, header, tempDataDir, testId } from './testing/traces';

const T0 = Date.UTC(2026, 4, 2, 9, 0, 0);

/** A small deterministic generator (the same hostile texts on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Pieces that sit next to the query words: escapes, separators and joiners of every kind. */
const PIECES = [
  'error', 'Error', 'ERROR', 'errors', 'xerror', 'error2', 'retry', 'Retry', 'timeout', 'timeouts', 'cafe', 'café', 'CAFÉ', 'cafe\u0301', 'naïve', 'über',
  ' ', ' ', ' ', '\n', '\t', '\r\n', '"', '\\', '\\n', '/', '_', '-', '.', '\u001b[31m', '\u007f', '\u0001', '\u00a0', '\u00a9', '\u00aa', '\u0080', '\u00b4', '\u2028',
  '😀', 'ﬁ', 'İ', 'ß', '\u212a', 'ſ', 'ｅｒｒｏｒ', 'é', '\u0301', 'ε', 'Σ', '日本', '½', '²', '0', '42', 'nerror', 'terror', 'rerror',
];

/** A text of about `length` characters made of the pieces, starting and ending with `edges` when given. */
function hostileText(rnd: () => number, length: number, edges = ''): string {
  const parts: string[] = [edges];
  let n = edges.length;
  while (n < length) {
    const p = PIECES[Math.floor(rnd() * PIECES.length)]!;
    parts.push(p);
    n += p.length;
  }
  parts.push(edges);
  return parts.join('');
}

/** The JSON text of a string, its escapes varied the ways a writer may (all decode to the same string). */
function jsonString(text: string, rnd: () => number): string {
  return JSON.stringify(text)
    .replace(/\//g, () => (rnd() < 0.5 ? '\\/' : '/'))
    // Only escapes that start at an odd backslash (`\\n` is a backslash and an n).
    .replace(/(?<!\\)((?:\\\\)*)\\u001b/g, (_, pairs: string) => `${pairs}${rnd() < 0.5 ? '\\u001B' : '\\u001b'}`)
    .replace(/(?<!\\)((?:\\\\)*)\\n/g, (_, pairs: string) => `${pairs}${rnd() < 0.1 ? '\\u000a' : '\\n'}`);
}

/** Raw content: the JSON text without its quotes, as a RawJsonText (or undefined when not taken). */
function raw(json: string): RawJsonText | undefined {
  const line = Buffer.from(json, 'utf8');
  return RawJsonText.take(line, 1, line.length - 1);
}

const QUERIES = ['error', 'err*', 'e*', 'retry timeout', 'cafe', 'naive', 'uber', 'nerror', 'fi', 'u001b', '42', 'timeout error', 'b*', 'n*', 'x*'];

describe('a raw JSON text', () => {
  it('gives the snippets of its decoded string, for hostile texts, every query', () => {
    const rnd = random(7);
    let compared = 0;
    let taken = 0;
    let found = 0;
    for (let i = 0; i < 120; i++) {
      const text = hostileText(rnd, i % 3 === 0 ? 3000 : 300, i % 4 === 0 ? 'error' : '');
      const r = raw(jsonString(text, rnd));
      if (r === undefined) continue;
      taken++;
      expect(r.text()).toBe(text);
      for (const q of QUERIES) {
        const terms = parseQuery(q);
        const expected = cutSnippet('tool', text, terms);
        expect(cutSnippet('tool', r, terms), `query ${q}, text ${i}`).toEqual(expected);
        compared++;
        if (expected) found++;
      }
    }
    expect(taken).toBeGreaterThan(60);
    expect(found).toBeGreaterThan(compared / 3);
  });

  it('finds a word next to escapes as the decoded text has it', () => {
    const cases: Array<[string, string, boolean]> = [
      // [JSON content, term, whole word there]
      ['a\\nerror', 'error', true],
      ['a\\\\nerror', 'error', false],
      ['a\\\\\\nerror', 'error', true],
      ['\\u001berror', 'error', true],
      ['\\u001Berror', 'error', true],
      ['error\\u001b', 'error', true],
      ['error\\\\', 'error', true],
      ['x\\"error\\"', 'error', true],
      ['\u00e9error', 'error', false],
      ['\u00a9error\u00a0', 'error', true],
      ['\u00aaerror', 'error', false],
      ['error\u00aa', 'error', false],
      ['😀error', 'error', false],
      ['\\u001b', 'b', false],
      ['\\u001b', 'u001b', false],
      ['\\terror', 'terror', false],
      ['ERROR', 'error', true],
    ];
    for (const [json, term, whole] of cases) {
      const r = raw(`"${json}"`)!;
      expect(r, json).toBeDefined();
      expect(r.find({ term, prefix: false }) !== -1, json).toBe(whole);
    }
  });

  it('is not taken when its escapes decode to letters, digits or beyond ASCII, or JSON.parse would reject it', () => {
    for (const json of ['\\u0065rror', '\\u00e9', '\\ud83d\\ude00', '\\x', 'a\u0001b', 'a\tb', '\\u12', '\\\\\\q']) expect(raw(`"${json}"`), json).toBeUndefined();
    for (const json of ['\\\\n', '\\\\\\n', '\\\\q', 'C:\\\\Users\\\\u0041', '\\/', '\\u007f', '\\u001F', 'a\\"b']) expect(raw(`"${json}"`), json).toBeDefined();
  });

  it('is searched and checked across the bounds of its views as a whole (words, escapes, refused bytes at every place around a bound)', () => {
    const VIEW = 64 * 1024;
    // The check's views are 64 KiB; the word search's grow from FIRST_VIEW_BYTES, doubling up to 64 KiB.
    const searchBounds: number[] = [];
    for (let at = 0, size = FIRST_VIEW_BYTES; at + size <= 2 * VIEW + 4 * 1024; size = Math.min(2 * size, VIEW)) searchBounds.push((at += size));
    // Whether JSON.parse takes the content and every escape is one the raw text takes: the rule, restated.
    const reference = (json: string) => {
      try {
        JSON.parse(`"${json}"`);
      } catch {
        return false;
      }
      return !/(?<!\\)(?:\\\\)*\\(?!["\\/bfnrt]|u00[01][0-9a-fA-F]|u007[fF])/.test(json);
    };
    let compared = 0;
    const bounds = [...new Set([...searchBounds, VIEW, 2 * VIEW])];
    expect(bounds.length).toBeGreaterThanOrEqual(7);
    for (const bound of bounds) {
      for (let k = -8; k <= 8; k++) {
        const at = bound + k;
        const pad = (n: number) => 'a '.repeat(Math.ceil(n / 2)).slice(0, n);
        for (const [piece, expectTaken] of [
          [' error ', true],
          [' Error\\n', true],
          ['\\u001berror ', true],
          ['\\u001Z', false],
          ['\\q', false],
          ['\\\\q', true],
          ['\\u0065rror', false],
          ['\u0001', false],
          ['\t', false],
          ['é error', true],
        ] as Array<[string, boolean]>) {
          const json = `${pad(at)}${piece}${pad(3000)} error`;
          const r = raw(`"${json}"`);
          expect(r !== undefined, `${piece} at ${at}`).toBe(expectTaken);
          expect(reference(json), `${piece} at ${at}`).toBe(expectTaken);
          if (!r) continue;
          const text = JSON.parse(`"${json}"`) as string;
          for (const q of ['error', 'err*']) {
            const terms = parseQuery(q);
            expect(cutSnippet('tool', r, terms), `${piece} at ${at}, ${q}`).toEqual(cutSnippet('tool', text, terms));
          }
          // Where the first whole word is: the decoded text's first, found across the bound.
          const firstWord = /(?<![A-Za-z0-9\u00aa-\uffff])error(?![A-Za-z0-9\u00aa-\uffff])/i.exec(text)!.index;
          const p = r.find({ term: 'error', prefix: false });
          const before = JSON.parse(`"${Buffer.from(json, 'utf8').subarray(0, p).toString('utf8')}"`) as string;
          expect(before.length, `${piece} at ${at}`).toBe(firstWord);
          compared++;
        }
      }
    }
    expect(compared).toBe(bounds.length * 17 * 5);
  });

  it('cuts from a window whose ends are the text’s only where they are (words at the very start and end, MB-long texts)', () => {
    const rnd = random(3);
    const filler = (n: number) => hostileText(rnd, n).replace(/error|cafe|café|CAFÉ|ｅｒｒｏｒ/gi, 'x');
    for (const text of [
      `error ${filler(2000)}`,
      `${filler(2000)} error`,
      'error',
      `${filler(1_200_000)} error ${filler(300)} error`,
      `${'\\'.repeat(2000)}error${'\n'.repeat(3000)}`,
      `${'é'.repeat(290)}error${'😀'.repeat(500)}`,
      `${'\u0001'.repeat(281)} error ${'\u0001'.repeat(491)}`,
      // A folded form of the word (not found by the word search, marked in the passage) 230
      // characters before it: the passage may start 280 characters before the word.
      ...[49, 50, 51, 60].map((k) => `${'\u0001'.repeat(k)}ｅｒｒｏｒ${'\u0001'.repeat(225)}error${'\u0001'.repeat(600)}`),
    ]) {
      for (const q of ['error', 'err*']) {
        const terms = parseQuery(q);
        const r = raw(JSON.stringify(text))!;
        expect(cutSnippet('tool', r, terms)).toEqual(cutSnippet('tool', text, terms));
      }
    }
  });
});

/** The text with every character beyond ASCII replaced (a line of it is all ASCII once written as JSON). */
const ascii = (text: string) => text.replace(/[^\u0000-\u007f]/g, 'x');

/** Replaces each marker of a record by its decoded text (what the record holds without the skeleton). */
function unmarked(value: unknown, skeleton: LineSkeleton): unknown {
  if (typeof value === 'string') return skeleton.resolve(value)?.text() ?? value;
  if (Array.isArray(value)) return value.map((v) => unmarked(v, skeleton));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmarked(v, skeleton)]));
  return value;
}

const S = 'SESSION-1';
const wire = (update: object) => `{"kind":"wire","t":5,"dir":"in","sessionId":"${S}","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a1","update":${JSON.stringify(update)}}}}`;

/** Long lines of every shape the snippets read, plus lines JSON.parse or UTF-8 decoding rejects. */
function hostileLines(rnd: () => number): Buffer[] {
  const big = (n = SKELETON_MIN_STRING + 500) => `${hostileText(rnd, n, 'error')}é`;
  const str = (text: string) => jsonString(text, rnd);
  const lines: string[] = [
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: big() } }] }),
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', rawInput: { command: big(), text: big() }, rawOutput: { stdout: big(), nested: [big(), { text: big() }] } }),
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'c3', content: [{ type: 'diff', path: '/a', oldText: big(), newText: big() }] }),
    wire({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: big() } }),
    wire({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: `${big()} error` } }),
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t1","action":"exited","exitCode":0,"signal":null,"output":${str(big())}}`,
    // Escapes varied in the JSON text itself, and strings of exactly the threshold's size.
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t2","action":"exited","exitCode":0,"signal":null,"output":"${'é'.repeat(SKELETON_MIN_STRING / 2)}"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t3","action":"exited","exitCode":0,"signal":null,"output":"${'é'.repeat(SKELETON_MIN_STRING / 2 - 1)}e"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t4","action":"exited","exitCode":0,"signal":null,"output":"${'é'.repeat(SKELETON_MIN_STRING / 2 - 1)}"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t5","action":"exited","exitCode":0,"signal":null,"output":${str(big()).replace(/error/, '\\u0065rror')}}`,
    // Rejected: a raw control character, a bad escape, a trailing comma, not JSON, a key escaped.
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t6","action":"exited","output":"${big().replace(/[\\"\u0000-\u001f]/g, '')}\u0001"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t7","action":"exited","output":"${big().replace(/[\\"\u0000-\u001f]/g, '')}\\x"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t8","action":"exited","output":${str(big())},}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t9","action":"exited","output":${str(big())}} trailing`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t10","action":"exited","\\u006futput":${str(big())}}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t11","action":"exited","output":${str(big())},"t":"x"}`,
    `{"kind":"wire","t":7,"dir":"in","sessionId":"${S}","msg":${str(big())}}`,
    `  {"kind" : "terminal" , "t":6e0,"sessionId":"${S}","terminalId":"t12","action":"exited","output" :\t${str(big())} }  `,
    `[${str(big())}]`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t14","action":"exited","output":${str(`\u0000${big()}`)}}`,
    // A short string that could pass for a marker, beside a long one: the line is read whole.
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"\\u00000","action":"exited","output":${str(big())}}`,
    // Lines that are all ASCII (read as their skeleton too), one with a bad escape, one with a raw tab.
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'c4', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: ascii(big()) } }] }),
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t15","action":"exited","exitCode":0,"signal":null,"output":${str(ascii(big()))}}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t16","action":"exited","output":"${ascii(big()).replace(/[\\"\u0000-\u001f]/g, '')}\\x"}`,
    `{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t17","action":"exited","output":"${ascii(big()).replace(/[\\"\u0000-\u001f]/g, '')}\t"}`,
  ];
  const out = lines.map((l) => Buffer.from(l, 'utf8'));
  // Invalid UTF-8 inside a long string.
  const bad = Buffer.from(`{"kind":"terminal","t":6,"sessionId":"${S}","terminalId":"t13","action":"exited","output":${str(big())}}`, 'utf8');
  bad[bad.length - 10] = 0xff;
  out.push(bad);
  return out;
}

describe('lines read as their skeleton', () => {
  it('give the same items as lines parsed whole (markers aside), rejected lines alike', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-skeleton-');
    try {
      const lines = hostileLines(random(5));
      const path = join(traces, 'x.jsonl');
      writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(header('x', T0))}\n`), ...lines.flatMap((l) => [l, Buffer.from('\n')])]));
      const whole: TraceItem[] = [];
      await readTraceTail(path, { position: 0, lines: 0 }, (item) => whole.push(item));
      const skeleton = new LineSkeleton();
      const skimmed: unknown[] = [];
      let markers = 0;
      await readTraceTail(
        path,
        { position: 0, lines: 0 },
        (item) => {
          const plain = unmarked(item, skeleton);
          if (JSON.stringify(plain) !== JSON.stringify(item)) markers++;
          skimmed.push(plain);
        },
        { skeleton },
      );
      expect(skimmed).toEqual(whole);
      expect(whole.filter((i) => i.type === 'corrupt').length).toBeGreaterThanOrEqual(9);
      expect(markers).toBeGreaterThanOrEqual(10);
      // The ASCII lines are read as their skeleton: the first two of them hold markers.
      expect(lines.filter((l) => isAscii(l) && skeleton.read(l) !== undefined).length).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('give the same snippets as lines parsed whole, for sessions of hostile long lines', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-skeleton-snippets-');
    try {
      const rnd = random(9);
      for (let k = 0; k < 6; k++) {
        const id = testId(T0 + k, 'sk');
        const tag = `"sessionId":"${id}","agentSessionId":"a${k}"`;
        const up = (u: object) => `{"kind":"wire","t":${10 + k},"dir":"in",${tag},"msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a${k}","update":${JSON.stringify(u)}}}}`;
        const big = (n: number) => hostileText(rnd, n, rnd() < 0.5 ? 'error' : '');
        const lines = [
          JSON.stringify(header(`c${k}`, T0 + k)),
          `{"kind":"wire","t":1,"dir":"out","sessionId":"${id}","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
          `{"kind":"wire","t":2,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"a${k}"}}}`,
          `{"kind":"session","t":3,"action":"created",${tag},"cwd":"/w"}`,
          `{"kind":"wire","t":4,"dir":"out",${tag},"msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"a${k}","prompt":[{"type":"text","text":"zqmarker${k} look for the error"}]}}}`,
          up({ sessionUpdate: 'agent_message_chunk', messageId: 'm0', content: { type: 'text', text: big(SKELETON_MIN_STRING + 10) } }),
          up({ sessionUpdate: 'agent_message_chunk', messageId: 'm0', content: { type: 'text', text: 'rror and retry' } }),
          up({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', status: 'pending', rawInput: { command: big(SKELETON_MIN_STRING * 2) } }),
          // A word past the 2,000 characters of a tool's input that are searched: no snippet from there.
          up({ sessionUpdate: 'tool_call', toolCallId: 'c0', status: 'pending', rawInput: { text: `é ${'x '.repeat(SKELETON_MIN_STRING)} zqinput` } }),
          up({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: big(SKELETON_MIN_STRING * 3) } }] }),
          up({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'completed', rawOutput: { out: big(SKELETON_MIN_STRING * 2), err: [big(SKELETON_MIN_STRING)] } }),
          up({ sessionUpdate: 'tool_call_update', toolCallId: 'c3', status: 'completed', content: [{ type: 'diff', path: '/p', oldText: 'x', newText: big(SKELETON_MIN_STRING * 2) }] }),
          `{"kind":"terminal","t":20,${tag},"terminalId":"t1","action":"created","command":"npm","args":["test"]}`,
          `{"kind":"terminal","t":21,${tag},"terminalId":"t1","action":"exited","exitCode":1,"signal":null,"output":${jsonString(big(SKELETON_MIN_STRING * 4), rnd)}}`,
          `{"kind":"terminal","t":22,${tag},"terminalId":"t2","action":"exited","exitCode":1,"signal":null,"output":${jsonString(big(SKELETON_MIN_STRING + 100), rnd)}}`,
          // Long lines that are all ASCII.
          up({ sessionUpdate: 'tool_call_update', toolCallId: 'c5', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: ascii(big(SKELETON_MIN_STRING * 2)) } }] }),
          `{"kind":"terminal","t":23,${tag},"terminalId":"t3","action":"exited","exitCode":1,"signal":null,"output":${jsonString(ascii(big(SKELETON_MIN_STRING + 100)), rnd)}}`,
          `{"kind":"wire","t":30,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}`,
        ];
        writeFileSync(join(traces, `c${k}.jsonl`), `${lines.join('\n')}\n`);
      }
      const store = await HistoryStore.open(dataDir, { alive: deadAgents, fold: { foldWorker: null } });
      let compared = 0;
      let nonEmpty = 0;
      for (let k = 0; k < 6; k++) {
        const hits = (await store.search(`zqmarker${k}`, { snippets: 0 })).hits;
        expect(hits).toHaveLength(1);
        for (const q of [...QUERIES, 'rror', 'retry', 'zqinput']) {
          const terms = parseQuery(q);
          for (const count of [1, 2, 5]) {
            const expected = await snippetsFor(hits[0]!.entry, terms, count, { readEveryLine: true });
            expect(await snippetsFor(hits[0]!.entry, terms, count), `session ${k}, ${q} × ${count}`).toEqual(expected);
            // Through the index's hints of the long lines, as the store reads them.
            expect(await snippetsFor(hits[0]!.entry, terms, count, { hints: (p) => store.traceHints(p) }), `hinted: session ${k}, ${q} × ${count}`).toEqual(expected);
            compared++;
            if (expected.length) nonEmpty++;
          }
        }
      }
      expect(compared).toBeGreaterThan(250);
      // Every session's trace has hints (the fold wrote them): the hinted path was taken.
      for (let k = 0; k < 6; k++) expect(store.traceHints(join(traces, `c${k}.jsonl`)), `c${k}`).toBeDefined();
      expect(nonEmpty).toBeGreaterThan(compared / 2);
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The skeleton a hint makes of its line: the line with each hinted string replaced by its marker. */
function skeletonOfHint(line: Buffer, hint: LineHint, marker = (n: number) => `\\u0000${n}`): string {
  const pieces: string[] = [];
  let from = 0;
  for (let k = 2, n = 0; k < hint.length; k += 3, n++) {
    pieces.push(line.toString('utf8', from, hint[k]), marker(n));
    from = hint[k + 1]!;
  }
  pieces.push(line.toString('utf8', from));
  return pieces.join('');
}

describe('lines read through the fold’s hints', () => {
  /** A trace of the hostile lines, its fold's hints, and what reading it whole gives. */
  async function hintedTrace(prefix: string) {
    const { dataDir, traces } = tempDataDir(prefix);
    const lines = hostileLines(random(5));
    const path = join(traces, 'x.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(header('x', T0))}\n`), ...lines.flatMap((l) => [l, Buffer.from('\n')])]));
    // A time in whole seconds, which utimes can put back exactly.
    utimesSync(path, new Date(T0), new Date(T0));
    const st = statSync(path);
    const folded = await foldTraceFile({ path, name: 'x.jsonl', position: 0, lines: 0, detailJson: '', imported: false, mtimeMs: st.mtimeMs, now: st.mtimeMs });
    const whole: TraceItem[] = [];
    await readTraceTail(path, { position: 0, lines: 0 }, (item) => whole.push(item));
    return { dataDir, path, lines, hints: folded.detail.hints ?? [], stamp: { ino: st.ino, mtimeMs: st.mtimeMs }, whole };
  }

  /** The items of a reading with the skeleton and `hints` (markers decoded), into a small reused buffer; and how many lines were read through a hint. */
  async function readHinted(path: string, hints: TraceHints, from = { position: 0, lines: 0 }, decode = true): Promise<{ items: unknown[]; hinted: number }> {
    const skeleton = new LineSkeleton();
    const items: unknown[] = [];
    let hinted = 0;
    const counting = Object.assign(Object.create(TraceHints.prototype) as TraceHints, hints);
    const at = hints.at.bind(hints);
    counting.at = (offset: number) => {
      const h = at(offset);
      if (h) hinted++;
      return h;
    };
    await readTraceTailInto(path, from, (item) => items.push(decode ? unmarked(item, skeleton) : item), { skeleton, hints: counting }, new ReadBuffer(Buffer.alloc(1000)));
    return { items, hinted };
  }

  it('take out the strings the skeleton takes out, the same skeleton for every line', async () => {
    const t = await hintedTrace('acpwb-hints-skeleton-');
    try {
      const file = readFileSync(t.path);
      const hints = new TraceHints(t.stamp, t.hints);
      let offset = file.indexOf(0x0a) + 1;
      let compared = 0;
      for (const [i, line] of t.lines.entries()) {
        const hint = hints.at(offset);
        const expected = new LineSkeleton().read(line);
        // A hint exactly where the skeleton takes strings out of a record (the fold hints records only).
        expect(hint !== undefined, `line ${i}`).toBe(expected !== undefined && t.whole[i + 1]!.type === 'record');
        if (hint !== undefined) {
          expect(hint[1]).toBe(line.length);
          expect(skeletonOfHint(line, hint), `line ${i}`).toBe(expected);
          compared++;
        }
        offset += line.length + 1;
      }
      expect(compared).toBeGreaterThanOrEqual(10);
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  it('give the same items as lines parsed whole, from the start and from the middle', async () => {
    const t = await hintedTrace('acpwb-hints-items-');
    try {
      const read = await readHinted(t.path, new TraceHints(t.stamp, t.hints));
      expect(read.items).toEqual(t.whole);
      expect(read.hinted).toBeGreaterThanOrEqual(10);
      // From a line in the middle (a catch-up's or a session's range).
      const mid = t.whole.length >> 1;
      const file = readFileSync(t.path);
      let position = 0;
      for (let k = 0; k < mid; k++) position = file.indexOf(0x0a, position) + 1;
      const fromMid = await readHinted(t.path, new TraceHints(t.stamp, t.hints), { position, lines: mid });
      expect(fromMid.items).toEqual(t.whole.slice(mid));
      expect(fromMid.hinted).toBeGreaterThanOrEqual(3);
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  it('are not used for another version of the file, and a hint the bytes do not match is dropped: the same items', async () => {
    const t = await hintedTrace('acpwb-hints-lies-');
    try {
      const size = statSync(t.path).size;
      // The last line (invalid UTF-8: no hint of the fold's).
      const lastLine = readFileSync(t.path).lastIndexOf(0x0a, size - 2) + 1;
      expect(t.hints.at(-1)![0]).toBeLessThan(lastLine);
      const lie = (change: (h: LineHint) => LineHint) => t.hints.map((h) => change([...h]));
      const first = t.hints[0]!;
      const lies: Array<[string, TraceHints, number]> = [
        ['another modification time', new TraceHints({ ...t.stamp, mtimeMs: t.stamp.mtimeMs + 1 }, t.hints), 0],
        ['another inode', new TraceHints({ ...t.stamp, ino: t.stamp.ino + 1 }, t.hints), 0],
        ['offsets one byte on', new TraceHints(t.stamp, lie((h) => [h[0]! + 1, ...h.slice(1)])), 0],
        ['lines one byte longer', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]! + 1, ...h.slice(2)])), 1],
        ['lines one byte shorter', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]! - 1, ...h.slice(2)])), 1],
        ['strings starting a byte early', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]!, h[2]! - 1, ...h.slice(3)])), 1],
        ['strings ending a byte late', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]!, h[2]!, h[3]! + 1, ...h.slice(4)])), 1],
        ['a string from the first quote of the line', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]!, 2, ...h.slice(3)])), 1],
        ['the last line said to end past the end of the file', new TraceHints(t.stamp, [...t.hints, [lastLine, size - lastLine, 2, 10, 1]]), t.hints.length + 1],
        ['a line said to run on over the next one', new TraceHints(t.stamp, lie((h) => [h[0]!, h[1]! + 2, ...h.slice(2)])), 1],
        ['a hint with a string missing its end', new TraceHints(t.stamp, [[first[0]!, first[1]!, first[2]!, first[3]!], ...t.hints.slice(1)]), 1],
        ['a hint that is not integers', new TraceHints(t.stamp, [[first[0]!, first[1]!, first[2]! + 0.5, first[3]!, 1], ...t.hints.slice(1)]), 1],
        ['a string past its line', new TraceHints(t.stamp, [[first[0]!, first[1]!, first[2]!, first[1]! + 5, 1], ...t.hints.slice(1)]), 1],
      ];
      // A hint the fold would not write: a line holding `\u0000` outside its long string (it could pass for a marker).
      const file = readFileSync(t.path);
      const k = t.lines.findIndex((l) => l.includes('"terminalId":"\\u00000"'));
      const at = file.indexOf(t.lines[k]!);
      const line = t.lines[k]!;
      const marked: LineHint = [at, line.length, line.indexOf('"output":') + 10, line.length - 2, 0];
      const before = t.hints.filter((h) => h[0]! < at);
      lies.push(['a line holding \\u0000 outside its strings', new TraceHints(t.stamp, [...before, marked, ...t.hints.slice(before.length)]), before.length + 1]);
      for (const [why, hints, tried] of lies) {
        const read = await readHinted(t.path, hints);
        expect(read.items, why).toEqual(t.whole);
        // The first hint found that does not match stops the use of hints.
        expect(read.hinted, why).toBe(tried);
      }
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  it('are trusted while the file’s inode and time are those the index saw: a string changed in place, its time put back, is read as its hint says', async () => {
    const t = await hintedTrace('acpwb-hints-stamp-');
    try {
      const file = readFileSync(t.path);
      const [offset, , start] = t.hints[0]!;
      const i = t.whole.findIndex((item) => item.type === 'record' && item.record.kind === 'wire' && JSON.stringify(item).includes('"c1"'));
      expect(t.whole[i]!.type).toBe('record');
      // A raw control character in the taken string: JSON.parse rejects the line.
      file[offset! + start! + 3] = 0x01;
      writeFileSync(t.path, file);
      const whole: TraceItem[] = [];
      await readTraceTail(t.path, { position: 0, lines: 0 }, (item) => whole.push(item));
      expect(whole[i]!.type).toBe('corrupt');
      // Same inode, modification time put back: the hints are used, the change is not seen.
      const st = statSync(t.path);
      utimesSync(t.path, st.atime, new Date(t.stamp.mtimeMs));
      expect(statSync(t.path).mtimeMs).toBe(t.stamp.mtimeMs);
      const trusted = await readHinted(t.path, new TraceHints(t.stamp, t.hints), { position: 0, lines: 0 }, false);
      expect((trusted.items[i] as TraceItem).type).toBe('record');
      expect(trusted.hinted).toBe(t.hints.length);
      // Any other time: read as it is.
      utimesSync(t.path, st.atime, new Date(t.stamp.mtimeMs + 2000));
      expect((await readHinted(t.path, new TraceHints(t.stamp, t.hints))).items).toEqual(whole);
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
