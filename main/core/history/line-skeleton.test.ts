import { isAscii } from 'node:buffer';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceItem } from '../../../common/trace/parse';
import { HistoryStore } from './history-store';
import { LineSkeleton, SKELETON_MIN_STRING } from './line-skeleton';
import { RawJsonText } from './raw-json-text';
import { parseQuery } from './search';
import { cutSnippet, snippetsFor } from './snippets';
import { readTraceTail } from './tail-reader';
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

  it('is searched and checked across the bounds of its 64 KiB views as a whole (words, escapes, refused bytes at every place around a bound)', () => {
    const VIEW = 64 * 1024;
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
    for (const bound of [VIEW, 2 * VIEW]) {
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
    expect(compared).toBe(2 * 17 * 5);
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
            compared++;
            if (expected.length) nonEmpty++;
          }
        }
      }
      expect(compared).toBeGreaterThan(250);
      expect(nonEmpty).toBeGreaterThan(compared / 2);
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
