import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateSessions } from '../../../bench/generate-sessions';
import { foldTraceFile, foldTraceFileSync, type FoldedFile, type FoldInput } from './fold-file';
import { FoldSkeleton } from './fold-skeleton';
import { SKELETON_MIN_STRING } from './line-skeleton';
import { TermCounter } from './term-counter';
import { header, tempDataDir, testId } from './testing/traces';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);

/** A small deterministic generator (the same texts on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Pieces next to each other in a text: words, separators, joiners, escapes' characters, every width of UTF-8. */
const PIECES = [
  'error', 'Error', 'ERROR', 'retry2', 'x', 'ab', 'abcdefghij', 'abcdefghijk', 'Abcdefghij', 'a'.repeat(40), 'b'.repeat(41), '0123456789', '12345678901',
  ' ', ' ', ' ', '\n', '\t', '\r\n', '"', '\\', '/', '_', '-', '.', '\u001b[31m', '\u007f', '\u0001', '\u0000', '\b', '\f',
  '\u0080', '\u00a0', '\u00a9', '\u00aa', '\u00b4', '\u00ba', '\u2028', 'café', 'CAFÉ', 'cafe\u0301', 'naïve', 'über', 'Straße', 'İ', 'ﬁle',
  'ℍℍ', '𝐀𝐁', '😀', '日本語', 'ε', 'Σ', '½', '²', 'ǅemal', '\ud800', 'x\udc00y', '\ud83d\ude00',
];

function text(rnd: () => number, length: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < length) {
    const p = PIECES[Math.floor(rnd() * PIECES.length)]!;
    parts.push(p);
    n += p.length;
  }
  return parts.join('');
}

/**
 * The content of the JSON string of `s` (between the quotes), each character written raw or as a
 * `\u` escape (either case), `/` raw or escaped — every form JSON.parse reads as `s`.
 */
function jsonContent(s: string, rnd: () => number, escapeRate: number): string {
  const json = JSON.stringify(s).slice(1, -1);
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '\\') {
      // An escape JSON.stringify wrote: kept, or its `\u` form.
      const e = json[i + 1]!;
      const len = e === 'u' ? 6 : 2;
      const esc = json.slice(i, i + len);
      const unit = e === 'u' ? parseInt(esc.slice(2), 16) : (JSON.parse(`"${esc}"`) as string).charCodeAt(0);
      out += rnd() < 0.3 ? `\\u${unit.toString(16).padStart(4, '0')}` : esc;
      i += len - 1;
    } else if (c === '/' && rnd() < 0.5) out += '\\/';
    else {
      // A character, or both halves of a surrogate pair (raw, a lone half would not be UTF-8).
      const unit = c.charCodeAt(0);
      const pair = unit >= 0xd800 && unit <= 0xdbff ? json.slice(i, i + 2) : c;
      i += pair.length - 1;
      if (rnd() < escapeRate) {
        for (const u of pair.split('').map((h) => h.charCodeAt(0).toString(16).padStart(4, '0'))) out += `\\u${rnd() < 0.5 ? u : u.toUpperCase()}`;
      } else out += pair;
    }
  }
  return out;
}

/** Everything a counter holds, comparable. */
function counted(c: TermCounter) {
  return { terms: [...c.terms], weights: [...Array.from(c.weights)], masks: [...Array.from(c.masks)], hashes: [...Array.from(c.hashes)], words: c.words };
}

describe('words counted from a JSON string’s bytes (TermCounter.addJson)', () => {
  it('are the words of the decoded string, in the same order, weights, masks, hashes and count', () => {
    const rnd = random(3);
    let joinedEscapes = 0;
    for (let k = 0; k < 400; k++) {
      const s = text(rnd, k % 10 === 0 ? 3000 : 1 + Math.floor(rnd() * 200));
      const content = jsonContent(s, rnd, k % 3 === 0 ? 0.2 : k % 3 === 1 ? 0.01 : 0);
      if (/\\u00[46][1-9a-f]/i.test(content)) joinedEscapes++;
      const bytes = Buffer.from(` "${content}" `, 'utf8');
      expect(JSON.parse(bytes.toString('utf8'))).toBe(s);
      const expected = new TermCounter();
      const actual = new TermCounter();
      // Several texts into one counter, with different weights and fields: entries are shared.
      for (const [weight, bit] of [
        [1, 8],
        [4, 1],
      ]) {
        expected.add(s, weight!, bit!);
        expect(actual.addJson(bytes, 2, bytes.length - 2, weight!, bit!)).toBe(true);
      }
      expect(counted(actual), `text ${k}: ${content.slice(0, 80)}`).toEqual(counted(expected));
    }
    // Escaped letters (joining the words around them) were among the texts.
    expect(joinedEscapes).toBeGreaterThan(50);
  });

  it('cut at escapes and at U+0080–U+00A9 as the decoded text is cut', () => {
    const cases: Array<[string, string[]]> = [
      ['\\nerror\\terror\\u000aerror\\rdone', ['error', 'done']],
      ['caf\\u00e9 caf\\u00C9 \\u0041BC x\\u0042y', ['cafe', 'abc', 'xby']],
      ['ab\u0080cd\u00a9ef\u00aagh', ['ab', 'cd', 'efªgh'.normalize('NFKD').toLowerCase()]],
      ['\\\\nerror \\"quoted\\" a\\/b', ['nerror', 'quoted']],
      ['UPPER lower MiXeD ABCDEFGHIJK', ['upper', 'lower', 'mixed', 'abcdefghijk']],
    ];
    for (const [content, first] of cases) {
      const c = new TermCounter();
      const bytes = Buffer.from(content, 'utf8');
      expect(c.addJson(bytes, 0, bytes.length, 1, 1)).toBe(true);
      const e = new TermCounter();
      e.add(JSON.parse(`"${content}"`) as string, 1, 1);
      expect(counted(c)).toEqual(counted(e));
      for (const t of first) expect(c.terms).toContain(t);
    }
  });

  it('say false where JSON.parse rejects the string', () => {
    for (const content of ['ok \u0001 then', 'tab\there', 'nul\u0000', 'bad \\x escape', 'bad \\u12G4 hex', 'short \\u12', 'end \\', 'word\\q']) {
      const bytes = Buffer.from(content, 'utf8');
      expect(() => JSON.parse(`"${content}"`), content).toThrow();
      expect(new TermCounter().addJson(bytes, 0, bytes.length, 1, 1), JSON.stringify(content)).toBe(false);
    }
  });
});

/** What a fold gives, comparable (the counters as their entries). */
function plain(f: FoldedFile) {
  return { ...f, docs: f.docs.map((d) => ({ sessionId: d.sessionId, length: d.length, terms: counted(d.terms as TermCounter) })) };
}

function input(path: string, from = { position: 0, lines: 0 }, detailJson = ''): FoldInput {
  return { path, name: path.split('/').pop()!, position: from.position, lines: from.lines, detailJson, imported: false, mtimeMs: statSync(path).mtimeMs, now: statSync(path).mtimeMs + 60_000 };
}

/** Folds with and without skeletons (both readers), from the start and as a catch-up from the middle, and expects the same. */
async function expectSameFolds(path: string): Promise<void> {
  const whole = plain(foldTraceFileSync(input(path), false));
  expect(plain(foldTraceFileSync(input(path)))).toEqual(whole);
  expect(plain(await foldTraceFile(input(path)))).toEqual(whole);
  // A catch-up: the first half folded as a live trace, the rest read on from there.
  const first = foldTraceFileSync({ ...input(path), now: 0 }, false);
  expect(plain(foldTraceFileSync({ ...input(path), now: 0 }))).toEqual(plain(first));
  const from = { position: first.tail.position, lines: first.tail.lines };
  const detailJson = JSON.stringify(first.detail);
  expect(plain(foldTraceFileSync(input(path, from, detailJson)))).toEqual(plain(foldTraceFileSync(input(path, from, detailJson), false)));
}

const big = (rnd: () => number, n = SKELETON_MIN_STRING + 300) => text(rnd, n);

describe('a fold that reads long lines as their skeleton', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives what the fold of whole lines gives, for long texts in every place the fold reads one, and where it does not', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-fold-skeleton-');
    try {
      const rnd = random(11);
      const id = testId(T0, 'fs');
      const tag = `"sessionId":"${id}","agentSessionId":"a1"`;
      const str = (s: string, rate = 0.01) => `"${jsonContent(s, rnd, rate)}"`;
      const up = (u: string) => `{"kind":"wire","t":9,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a1","update":${u}}}}`;
      const lines = [
        JSON.stringify(header('c1', T0)),
        `{"kind":"wire","t":1,"dir":"out","sessionId":"${id}","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
        `{"kind":"wire","t":2,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"a1"}}}`,
        // A first prompt whose text is long: it names the session (decoded), and its words are counted.
        `{"kind":"wire","t":3,"dir":"out",${tag},"msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"a1","prompt":[{"type":"text","text":${str(`  Fix   the\n flaky ${big(rnd)}`)}},{"type":"resource","resource":{"uri":"file:///r","text":${str(big(rnd))}}}]}}}`,
        `{"kind":"prompt","t":3,${tag},"requestId":2,"origin":"user","prompt":[{"type":"text","text":${str(big(rnd))}}]}`,
        // Streamed pieces, long and short, joined: a word split across them.
        up(`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":${str(`${big(rnd)} hippo`)}}}`),
        up(`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"potamus ok"}}`),
        up(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":${str(big(rnd), 0.2)}}}`),
        // Tool content, a diff's new text, raw output read (no content) and not read (content there), raw input (never taken out).
        up(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run it","status":"pending","rawInput":{"command":${str(big(rnd))}}}`),
        up(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":${str(big(rnd))}}}],"rawOutput":{"out":${str(big(rnd))}}}`),
        up(`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","rawOutput":{"out":${str(big(rnd))},"nested":[${str(big(rnd))},{"text":${str(big(rnd))}}]}}`),
        up(`{"sessionUpdate":"tool_call_update","toolCallId":"c3","status":"completed","content":[{"type":"diff","path":"/w/a.ts","oldText":${str(big(rnd))},"newText":${str(big(rnd))}}]}`),
        // A terminal's output: the first final one is read, a later one is not.
        `{"kind":"terminal","t":20,${tag},"terminalId":"t1","action":"created","command":"npm","args":["test"]}`,
        `{"kind":"terminal","t":21,${tag},"terminalId":"t1","action":"exited","exitCode":1,"signal":null,"output":${str(big(rnd))}}`,
        `{"kind":"terminal","t":22,${tag},"terminalId":"t1","action":"released","output":${str(big(rnd))}}`,
        `{"kind":"fs-write","t":23,${tag},"path":"/w/a.ts","oldText":${str(big(rnd))},"newText":${str(big(rnd))}}`,
        // Not records: the skeleton says so, and the line is read whole (a bad record kind, a short
        // string that could pass for a marker, a long line that is JSON but no object).
        `{"kind":"nonsense","t":24,${tag},"output":${str(big(rnd))}}`,
        `{"kind":"terminal","t":25,${tag},"terminalId":"\\u00000","action":"exited","output":${str(big(rnd))}}`,
        `[${str(big(rnd))}]`,
        `{"kind":"wire","t":30,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}`,
        up(`{"sessionUpdate":"agent_message_chunk","messageId":"m2","content":{"type":"text","text":${str(`${big(rnd)} unfinish`)}}}`),
      ];
      const path = join(traces, 'c1.jsonl');
      writeFileSync(path, `${lines.join('\n')}\n`);
      const addJson = vi.spyOn(TermCounter.prototype, 'addJson');
      const f = foldTraceFileSync(input(path));
      // Counted from the bytes: the resource's text, the prompt record's, the tool's content, the
      // three raw output leaves, the terminal's first output (the prompt's text and the streamed
      // pieces are decoded; the rest is not read; the diff's line is read whole, as a `\u0000` in
      // its old text — not taken out — could pass for a marker).
      expect(addJson).toHaveBeenCalledTimes(7);
      await expectSameFolds(path);
      expect(Object.values(f.detail.sessions!)[0]!.firstPrompt).toMatch(/^Fix the flaky /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('folds a file again whole when a long string it took out is not valid JSON, read or not', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-fold-skeleton-bad-');
    try {
      const rnd = random(13);
      const id = testId(T0, 'fb');
      const tag = `"sessionId":"${id}","agentSessionId":"a1"`;
      const clean = () => big(rnd).replace(/[\\"\u0000-\u001f\ud800-\udfff]/g, '');
      const up = (u: string) => `{"kind":"wire","t":9,"dir":"in",${tag},"msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a1","update":${u}}}}`;
      const bad = [
        `"${clean()}\u0001 tail"`, // a raw control character, where the text is read
        `"${clean()} \\x tail"`, // a bad escape
        `"${clean()} \\u00zz"`, // a bad `\u`
      ];
      let folds = 0;
      for (const [k, b] of bad.entries()) {
        for (const read of [true, false]) {
          const lines = [
            JSON.stringify(header(`b${k}`, T0)),
            `{"kind":"wire","t":1,"dir":"out","sessionId":"${id}","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
            up(`{"sessionUpdate":"tool_call_update","toolCallId":"c0","status":"completed","content":[{"type":"content","content":{"type":"text","text":"${clean()}"}}]}`),
            // Read: the tool's content; not read: raw output beside content.
            read
              ? up(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":${b}}}]}`)
              : up(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"ok"}}],"rawOutput":{"out":${b}}}`),
            up(`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"${clean()}"}}]}`),
          ];
          const path = join(traces, `b${k}-${read}.jsonl`);
          writeFileSync(path, `${lines.join('\n')}\n`);
          const whole = plain(foldTraceFileSync(input(path), false));
          // The line is corrupt, as JSON.parse says; the lines around it are indexed once.
          expect(whole.detail.corruptLines).toBe(1);
          const again = vi.spyOn(FoldSkeleton.prototype, 'check');
          expect(plain(foldTraceFileSync(input(path)))).toEqual(whole);
          expect(plain(await foldTraceFile(input(path)))).toEqual(whole);
          expect(again).toHaveBeenCalled();
          again.mockRestore();
          folds++;
        }
      }
      expect(folds).toBe(6);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('gives what the fold of whole lines gives on generated sessions', async () => {
    const { dataDir, traces } = tempDataDir('acpwb-fold-skeleton-gen-');
    try {
      generateSessions({ dir: traces, count: 12, seed: 23, sizeScale: 0.4, twoSessionsEvery: 4 });
      const addJson = vi.spyOn(TermCounter.prototype, 'addJson');
      for (const name of readdirSync(traces)) await expectSameFolds(join(traces, name));
      expect(addJson).toHaveBeenCalled();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
