#!/usr/bin/env node
// Flood agent: a real ACP agent subprocess for the benchmarks (issue #11). It answers
// `initialize` and `session/new` at once; on `session/prompt` it sends updates of the benchmark mix,
// then ends the turn with `end_turn`. Plain Node, no dependencies, so it costs as little CPU as a
// generator can: every line is built by concatenating pre-escaped JSON fragments, and lines are
// written in ~64 KiB batches, waiting for 'drain' (the pipe's own pace) when the reader is slower.
//
// The mix (per update i = 0, 1, 2...):
//   - 9 in 10: `agent_message_chunk`, a ~200-byte line (about 60 characters of text);
//   - 1 in 10: a tool-call update carrying a ~16 KiB diff (oldText + newText ≈ 16 KiB): tool call k
//     is opened by `tool_call` (in_progress, with its diff) and closed by `tool_call_update`
//     (completed, with the final diff), so two diff updates per tool call, as agents send edits.
//   Agent messages are therefore interrupted by tool calls, as in a real turn.
//
// Options (argv): --n N updates per prompt (default 10000); --rate R updates/s (0 = as fast as the
// pipe allows, the default; with R > 0 updates go out in 5 ms ticks); --seconds S (with --rate:
// send for S seconds instead of N updates); --diff-bytes B (default 16384); --tool-every K
// (default 10; 0 = no tool calls); --stamp (each message chunk's text starts with
// "@<epoch ms>;" — the wall-clock time the line was written, for latency measurements);
// --alternate (message chunks alternate with thought chunks, so each chunk is an entry of its own:
// long transcripts; --no-alternate undoes it); --paragraphs (each chunk's text ends a markdown paragraph); --prefill P (with
// --rate: P updates at once before the paced ones, e.g. a long message that then keeps streaming).
// A prompt whose text starts with `--` (e.g. "--rate 100 --seconds 3") adds those options for its turn.
// `session/cancel` stops the flood; the prompt then ends with `cancelled`. Exits when stdin ends.
import { createInterface } from 'node:readline';

let N, RATE, SECONDS, DIFF_BYTES, TOOL_EVERY, STAMP, ALTERNATE, PARAGRAPHS, PREFILL, OLD_BODY, NEW_BODY;
/** Sets the options from an argv-style list (the command line, then a prompt's own, see onPrompt). */
function configure(args) {
  const opt = (name, fallback) => {
    const i = args.lastIndexOf(`--${name}`);
    return i === -1 ? fallback : args[i + 1];
  };
  N = Number(opt('n', 10000));
  RATE = Number(opt('rate', 0));
  SECONDS = Number(opt('seconds', 0));
  const diffBytes = Number(opt('diff-bytes', 16384));
  if (diffBytes !== DIFF_BYTES) {
    DIFF_BYTES = diffBytes;
    OLD_BODY = fileBody(DIFF_BYTES / 2, 1);
    NEW_BODY = fileBody(DIFF_BYTES / 2, 2);
  }
  TOOL_EVERY = Number(opt('tool-every', 10));
  STAMP = args.includes('--stamp');
  ALTERNATE = args.includes('--alternate') && !args.includes('--no-alternate');
  PARAGRAPHS = args.includes('--paragraphs');
  PREFILL = Number(opt('prefill', 0));
}
const argv = process.argv.slice(2);
const BATCH_BYTES = 64 * 1024;

const out = process.stdout;
let sessionCounter = 0;
let cancelled = false;

const WORDS = 'the quick brown fox jumps over a lazy dog while agents stream tokens into panes'.split(' ');
/** ~60 characters of prose that varies with i (so no two lines are byte-identical). */
function chunkText(i) {
  let s = `${i} `;
  for (let w = i % 7; s.length < 38; w++) s += `${WORDS[w % WORDS.length]} `;
  return s;
}

/** A source file of about `bytes` characters, as JSON-escaped text (newlines as \n). */
function fileBody(bytes, variant) {
  const lines = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const line = `export function step${n}_${variant}(input: number): number { return input * ${n + 1} + ${variant}; }`;
    lines.push(line);
    size += line.length + 1;
  }
  return JSON.stringify(lines.join('\n')).slice(1, -1);
}
configure(argv);

function send(obj) {
  out.write(`${JSON.stringify(obj)}\n`);
}

/** Update `i` of the mix for session `sid`, as one JSON line with its newline. */
function updateLine(sid, i) {
  const head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sid}","update":`;
  if (TOOL_EVERY > 0 && i % TOOL_EVERY === TOOL_EVERY - 1) {
    const n = (i - (TOOL_EVERY - 1)) / TOOL_EVERY; // the n-th tool-call update
    const k = n >> 1;
    const path = `/work/project/src/module-${k}.ts`;
    // The first line of each side varies, so every diff is a distinct string.
    const diff = `{"type":"diff","path":"${path}","oldText":"// v${k}\\n${OLD_BODY}","newText":"// v${k}+${n}\\n${NEW_BODY}"}`;
    if (n % 2 === 0) {
      return `${head}{"sessionUpdate":"tool_call","toolCallId":"tc-${k}","title":"Edit src/module-${k}.ts","kind":"edit","status":"in_progress","content":[${diff}],"locations":[{"path":"${path}"}]}}}\n`;
    }
    return `${head}{"sessionUpdate":"tool_call_update","toolCallId":"tc-${k}","status":"completed","content":[${diff}]}}}\n`;
  }
  let text = STAMP ? `@${(performance.timeOrigin + performance.now()).toFixed(3)};${chunkText(i)}` : chunkText(i);
  if (PARAGRAPHS) text += '\\n\\n';
  const kind = ALTERNATE && i % 2 === 1 ? 'agent_thought_chunk' : 'agent_message_chunk';
  return `${head}{"sessionUpdate":"${kind}","content":{"type":"text","text":"${text}"}}}}\n`;
}

const drained = () => new Promise((resolve) => out.once('drain', resolve));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** As fast as the pipe allows: batches of lines, waiting for drain when the reader lags. */
async function flood(sid) {
  let batch = '';
  for (let i = 0; i < N && !cancelled; i++) {
    batch += updateLine(sid, i);
    if (batch.length >= BATCH_BYTES) {
      const ok = out.write(batch);
      batch = '';
      if (!ok) await drained();
    }
  }
  if (batch) out.write(batch);
}

/** R updates per second, in 5 ms ticks, catching up after a late tick; for N updates or S seconds. */
async function paced(sid) {
  const start = performance.now();
  const total = PREFILL + (SECONDS > 0 ? Math.round(RATE * SECONDS) : N);
  let sent = 0;
  while (sent < total && !cancelled) {
    const due = Math.min(total, PREFILL + Math.floor(((performance.now() - start) / 1000) * RATE));
    let batch = '';
    for (; sent < due; sent++) batch += updateLine(sid, sent);
    if (batch && !out.write(batch)) await drained();
    await sleep(5);
  }
}

/** A prompt whose text starts with `--` adds its own options to the command line's for this turn. */
async function onPrompt(id, sid, prompt) {
  const text = Array.isArray(prompt) ? prompt.map((b) => (b && b.type === 'text' ? b.text : '')).join(' ').trim() : '';
  configure(text.startsWith('--') ? [...argv, ...text.split(/\s+/)] : argv);
  cancelled = false;
  await (RATE > 0 ? paced(sid) : flood(sid));
  send({ jsonrpc: '2.0', id, result: { stopReason: cancelled ? 'cancelled' : 'end_turn' } });
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  switch (msg.method) {
    case 'initialize':
      send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false, promptCapabilities: {} }, authMethods: [], agentInfo: { name: 'flood-agent', version: '1.0.0' } } });
      break;
    case 'session/new':
      send({ jsonrpc: '2.0', id: msg.id, result: { sessionId: `flood-${++sessionCounter}` } });
      break;
    case 'session/prompt':
      void onPrompt(msg.id, msg.params?.sessionId ?? 'flood-1', msg.params?.prompt);
      break;
    case 'session/cancel':
      cancelled = true;
      break;
    default:
      if (msg.id !== undefined && msg.method !== undefined) send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
  }
});
lines.on('close', () => {
  // Let queued output reach the pipe before leaving.
  out.end(() => process.exit(0));
});
