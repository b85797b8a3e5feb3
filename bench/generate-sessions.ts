/**
 * Synthetic session traces for the history tests and benchmarks: real trace-format files
 * (docs/trace-format.md) of plausible agent sessions — prompts, streamed thoughts and answers, tool
 * calls with outputs and diffs, permissions, file writes, terminals, usage, stop reasons — whose sizes
 * follow what real histories look like: median ~30 KB, 10 % over 300 KB, 1 % over 3 MB (the big ones
 * are long sessions with large tool outputs). Deterministic for a seed.
 *
 * Tests import it directly; bench/history.bench.mjs bundles it with esbuild.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type PlantWhere = 'prompt' | 'agent' | 'thought' | 'tool-title' | 'tool-output' | 'path';

export interface GenerateOptions {
  /** Folder to write `<connectionId>.jsonl` files into (created). */
  dir: string;
  /** Number of sessions (a few traces hold two sessions, like `check` runs). */
  count: number;
  seed?: number;
  /** Multiplies every target size (tests use small scales). */
  sizeScale?: number;
  /** Explicit target sizes in bytes, one per trace; overrides the distribution. */
  sizes?: number[];
  /** Wall clock of the first session; later ones follow at random intervals (default 2026-01-01). */
  startMs?: number;
  /** Every Nth trace holds two sessions (0 = never). Default 50. */
  twoSessionsEvery?: number;
  /** Words to put at one place of one session (by session index), for search checks. */
  plant?: Array<{ session: number; where: PlantWhere; word: string }>;
}

export interface GeneratedSession {
  sessionId: string;
  agentSessionId: string;
  connectionId: string;
  file: string;
  agentId: string;
  cwd: string;
  turns: number;
  createdMs: number;
}

export interface GeneratedTrace {
  file: string;
  bytes: number;
  sessions: GeneratedSession[];
}

/** mulberry32: small, fast, deterministic. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const between = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

/**
 * Target trace size for a quantile u in [0, 1): log-linear between fixed points, aimed a little
 * low because small traces come out bigger than their target (a turn's envelopes), so that the
 * files' median is ~30 KB, 10 % are over 300 KB and 1 % over 3 MB.
 */
export function sizeForQuantile(u: number): number {
  const points: Array<[number, number]> = [
    [0, 3_000],
    [0.5, 21_000],
    [0.9, 290_000],
    [0.99, 3_100_000],
    [1, 9_000_000],
  ];
  for (let i = 1; i < points.length; i++) {
    const [u1, s1] = points[i]!;
    const [u0, s0] = points[i - 1]!;
    if (u <= u1) return Math.round(Math.exp(Math.log(s0) + ((u - u0) / (u1 - u0)) * (Math.log(s1) - Math.log(s0))));
  }
  return points[points.length - 1]![1];
}

// ---------------------------------------------------------------------------------------------
// Words: a Zipf-distributed vocabulary of common English and programming words plus invented
// identifiers, as in real transcripts (a few words very often, a long tail rarely).

const COMMON = `the be to of and a in that have it for not on with he as you do at this but his by from they we say her she or an will my
one all would there their what so up out if about who get which go me when make can like time no just him know take people into year your
good some could them see other than then now look only come its over think also back after use two how our work first well way even new
want because any these give day most us is was are been has had were said did file code test function error value type return import export
const let var class interface module package build run install update fix change add remove bug issue feature branch commit merge review
server client request response handler route config option setting default parse format string number boolean array object null undefined
async await promise callback event listener stream buffer path folder directory read write open close create delete rename copy move
check lint compile bundle deploy release version tag log debug info warning trace stack frame line column index length size count total
user session agent tool call prompt message thought plan step task result output input status pending progress completed failed cancelled
permission allow reject always once terminal command exit signal process child spawn kill timeout retry cache memory disk network socket
database query table column row schema migration model view controller component render state store props hook effect context provider
test suite spec case expect assert mock stub fixture snapshot coverage report benchmark performance latency throughput regression`.split(/\s+/);

const SYLLABLES = ['ka', 'ro', 'mi', 'zen', 'tor', 'vel', 'qui', 'dra', 'lo', 'ne', 'sta', 'pix', 'mun', 'gar', 'fel', 'tri', 'bo', 'sha', 'ul', 'ix', 'or', 'pen', 'cal', 'dor'];
const UNICODE_WORDS = ['café', 'naïve', 'über', 'résumé', 'façade', 'jalapeño', 'Größe', 'smørrebrød'];

/** The vocabulary and a sampler with Zipf weights (rank r has weight 1/r). */
export function createVocabulary(size = 20_000): { words: string[]; sample: (rng: Rng) => string } {
  const rng = createRng(12345);
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < size) {
    const n = between(rng, 2, 4);
    let w = '';
    for (let i = 0; i < n; i++) w += pick(rng, SYLLABLES);
    if (rng() < 0.15) w = `${w}${pick(rng, ['Handler', 'Config', 'Store', 'Util', 'Error', 'Id', 'List', 'Map'])}`;
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  for (const w of UNICODE_WORDS) words.splice(between(rng, 200, 2000), 0, w);
  const cdf = new Float64Array(words.length);
  let acc = 0;
  for (let r = 0; r < words.length; r++) cdf[r] = acc += 1 / (r + 1);
  const sample = (g: Rng) => {
    const x = g() * acc;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  return { words, sample };
}

const VOCAB = createVocabulary();

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(VOCAB.sample(rng));
  const s = out.join(' ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

function prose(rng: Rng, words: number): string {
  const out: string[] = [];
  let left = words;
  while (left > 0) {
    const n = Math.min(left, between(rng, 6, 18));
    out.push(sentence(rng, n));
    left -= n;
  }
  return out.join(' ');
}

function hex(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rng() * 16)];
  return s;
}

function codeLine(rng: Rng): string {
  const w = () => VOCAB.sample(rng).replace(/[^A-Za-z]/g, '') || 'x';
  switch (between(rng, 0, 5)) {
    case 0:
      return `  const ${w()}${w().replace(/^./, (c) => c.toUpperCase())} = ${w()}(${w()}, ${between(rng, 0, 999)});`;
    case 1:
      return `  if (${w()}.${w()} === '${w()}') return ${w()};`;
    case 2:
      return `export function ${w()}(${w()}: string): ${pick(rng, ['void', 'number', 'string', 'Promise<void>'])} {`;
    case 3:
      return `  // ${sentence(rng, between(rng, 4, 10))}`;
    case 4:
      return `import { ${w()} } from './${w()}';`;
    default:
      return '}';
  }
}

function logLine(rng: Rng): string {
  const level = pick(rng, ['INFO', 'INFO', 'INFO', 'WARN', 'DEBUG', 'ERROR']);
  const extra = rng() < 0.05 ? ` id=${hex(rng, 12)}` : '';
  return `${level} ${sentence(rng, between(rng, 3, 12))}${extra}`;
}

/** Text of about `bytes` characters: source code or a command's log. */
function bulk(rng: Rng, bytes: number, kind: 'code' | 'log'): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const l = kind === 'code' ? codeLine(rng) : logLine(rng);
    lines.push(l);
    size += l.length + 1;
  }
  return lines.join('\n');
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulid(rng: Rng, ms: number): string {
  let time = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32]! + time;
    rest = Math.floor(rest / 32);
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[Math.floor(rng() * 32)];
  return time + rand;
}

const AGENTS = [
  { id: 'claude-acp', name: 'Claude Code', info: { name: 'claude-agent-acp', title: 'Claude Code', version: '0.49.0' }, command: 'claude-agent-acp', weight: 4 },
  { id: 'codex-acp', name: 'Codex', info: { name: 'codex-acp', title: 'Codex', version: '0.6.1' }, command: 'codex-acp', weight: 3 },
  { id: 'gemini', name: 'Gemini CLI', info: { name: 'gemini-cli', title: 'Gemini CLI', version: '0.17.0' }, command: 'gemini', weight: 2 },
  { id: 'opencode', name: 'OpenCode', info: { name: 'opencode', title: 'OpenCode', version: '1.0.3' }, command: 'opencode', weight: 1 },
  { id: 'goose', name: 'goose', info: { name: 'goose', title: 'goose', version: '1.9.3' }, command: 'goose', weight: 1 },
];
const AGENT_BAG = AGENTS.flatMap((a) => Array.from({ length: a.weight }, () => a));
const PROJECTS = ['api-server', 'web-app', 'cli-tool', 'data-pipeline', 'mobile', 'infra', 'docs-site', 'payments', 'search', 'auth', 'billing', 'scheduler'];
const STOP_REASONS = ['end_turn', 'end_turn', 'end_turn', 'end_turn', 'end_turn', 'end_turn', 'end_turn', 'cancelled', 'max_tokens', 'refusal'];

interface SessionPlan {
  sessionId: string;
  agentSessionId: string;
  cwd: string;
  plants: Array<{ where: PlantWhere; word: string }>;
}

/** Writes one trace's lines; `t` only moves forward. */
class TraceBuilder {
  readonly lines: string[] = [];
  bytes = 0;
  t = 0;
  private ourId = 0;
  private theirId = 0;

  constructor(private readonly rng: Rng) {}

  push(record: Record<string, unknown>): void {
    const line = JSON.stringify(record);
    this.lines.push(line);
    this.bytes += line.length + 1;
  }

  tick(lo: number, hi: number): number {
    this.t = Math.round((this.t + lo + this.rng() * (hi - lo)) * 1000) / 1000;
    return this.t;
  }

  nextOurId(): number {
    return this.ourId++;
  }

  nextTheirId(): number {
    return this.theirId++;
  }
}

function update(b: TraceBuilder, s: SessionPlan, upd: Record<string, unknown>, lo = 5, hi = 60): void {
  b.push({
    kind: 'wire',
    t: b.tick(lo, hi),
    dir: 'in',
    sessionId: s.sessionId,
    agentSessionId: s.agentSessionId,
    msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: s.agentSessionId, update: upd } },
  });
}

function stream(b: TraceBuilder, rng: Rng, s: SessionPlan, kind: 'agent_message_chunk' | 'agent_thought_chunk', text: string): void {
  const messageId = `msg_${hex(rng, 8)}`;
  let i = 0;
  while (i < text.length) {
    const n = between(rng, 12, 60);
    update(b, s, { sessionUpdate: kind, messageId, content: { type: 'text', text: text.slice(i, i + n) } }, 2, 40);
    i += n;
  }
}

function plantedWord(s: SessionPlan, where: PlantWhere): string {
  const words = s.plants.filter((p) => p.where === where).map((p) => p.word);
  s.plants = s.plants.filter((p) => p.where !== where);
  return words.length ? ` ${words.join(' ')}` : '';
}

function toolCall(b: TraceBuilder, rng: Rng, s: SessionPlan, outputBytes: number): void {
  const id = `call_${hex(rng, 10)}`;
  const file = `${s.cwd}/src/${VOCAB.sample(rng).replace(/[^A-Za-z]/g, '') || 'lib'}/${VOCAB.sample(rng).replace(/[^A-Za-z]/g, '') || 'main'}.ts`;
  const kind = pick(rng, ['read', 'read', 'execute', 'execute', 'search', 'edit', 'edit', 'fetch']);
  const titleExtra = plantedWord(s, 'tool-title');
  const pathExtra = plantedWord(s, 'path').trim();
  const path = pathExtra ? `${s.cwd}/src/${pathExtra}/index.ts` : file;
  const title =
    kind === 'read' ? `Read ${path.slice(s.cwd.length + 1)}` : kind === 'execute' ? `Run ${pick(rng, ['npm test', 'npm run build', 'git status', 'pytest -q', 'cargo check', 'make lint'])}` : kind === 'search' ? `Search for "${VOCAB.sample(rng)}"` : kind === 'fetch' ? `Fetch https://example.com/${VOCAB.sample(rng)}` : `Edit ${path.slice(s.cwd.length + 1)}`;
  update(b, s, { sessionUpdate: 'tool_call', toolCallId: id, title: title + titleExtra, kind, status: 'pending', locations: [{ path }], rawInput: { path } });
  const planted = plantedWord(s, 'tool-output');
  if (kind === 'edit') {
    const oldText = bulk(rng, Math.min(outputBytes, 4000), 'code');
    const newText = `${oldText}\n${codeLine(rng)}${planted}`;
    const diff = { type: 'diff', path, oldText, newText };
    update(b, s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', content: [diff] });
    const rid = b.nextTheirId();
    b.push({ kind: 'wire', t: b.tick(1, 5), dir: 'in', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id: rid, method: 'session/request_permission', params: { sessionId: s.agentSessionId, toolCall: { toolCallId: id, title }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] } } });
    b.push({ kind: 'permission-asked', t: b.tick(0.1, 1), sessionId: s.sessionId, agentSessionId: s.agentSessionId, requestId: rid, toolCallId: id });
    const allow = rng() < 0.9;
    b.push({ kind: 'permission-decided', t: b.tick(300, 4000), sessionId: s.sessionId, agentSessionId: s.agentSessionId, requestId: rid, outcome: 'selected', optionId: allow ? 'allow' : 'reject', by: pick(rng, ['user', 'policy']) });
    b.push({ kind: 'wire', t: b.tick(0.1, 1), dir: 'out', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id: rid, result: { outcome: { outcome: 'selected', optionId: allow ? 'allow' : 'reject' } } } });
    if (allow) {
      const wid = b.nextTheirId();
      b.push({ kind: 'wire', t: b.tick(1, 10), dir: 'in', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id: wid, method: 'fs/write_text_file', params: { sessionId: s.agentSessionId, path, content: newText } } });
      b.push({ kind: 'fs-write', t: b.tick(0.5, 3), sessionId: s.sessionId, agentSessionId: s.agentSessionId, requestId: wid, path, oldText, newText });
      b.push({ kind: 'wire', t: b.tick(0.1, 1), dir: 'out', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id: wid, result: {} } });
    }
    update(b, s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: allow ? 'completed' : 'failed' });
    return;
  }
  const output = bulk(rng, outputBytes, kind === 'read' ? 'code' : 'log') + planted;
  if (kind === 'execute' && rng() < 0.5) {
    const terminalId = `term-${hex(rng, 6)}`;
    b.push({ kind: 'terminal', t: b.tick(1, 5), sessionId: s.sessionId, agentSessionId: s.agentSessionId, terminalId, action: 'created', command: 'sh', args: ['-c', title.slice(4)], cwd: s.cwd });
    update(b, s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
    b.push({ kind: 'terminal', t: b.tick(200, 8000), sessionId: s.sessionId, agentSessionId: s.agentSessionId, terminalId, action: 'exited', exitCode: rng() < 0.8 ? 0 : 1, signal: null, output, truncated: false });
    b.push({ kind: 'terminal', t: b.tick(1, 5), sessionId: s.sessionId, agentSessionId: s.agentSessionId, terminalId, action: 'released' });
    update(b, s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
    return;
  }
  update(b, s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: output } }] }, 50, 2000);
}

function turn(b: TraceBuilder, rng: Rng, s: SessionPlan, budget: number, turnNo: number): void {
  // Small budgets make short turns, so small sessions stay small; big ones get big tool outputs.
  const words = (most: number) => between(rng, 6, Math.max(6, Math.min(most, Math.round(budget / 90))));
  const id = b.nextOurId();
  const promptText = prose(rng, words(50)) + plantedWord(s, 'prompt');
  b.push({ kind: 'prompt', t: b.tick(2000, 60000), sessionId: s.sessionId, agentSessionId: s.agentSessionId, requestId: id, origin: 'user' });
  b.push({ kind: 'wire', t: b.tick(0.1, 1), dir: 'out', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId: s.agentSessionId, prompt: [{ type: 'text', text: promptText }] } } });
  if (rng() < 0.6 || s.plants.some((p) => p.where === 'thought')) stream(b, rng, s, 'agent_thought_chunk', prose(rng, words(120)) + plantedWord(s, 'thought'));
  if (rng() < 0.3) update(b, s, { sessionUpdate: 'plan', entries: [1, 2, 3].map(() => ({ content: sentence(rng, between(rng, 3, 7)), priority: 'medium', status: 'pending' })) });
  const mustCall = s.plants.some((p) => p.where === 'tool-output' || p.where === 'tool-title' || p.where === 'path');
  const calls = Math.max(mustCall ? 1 : 0, between(rng, 0, Math.min(5, Math.floor(budget / 4000))));
  for (let i = 0; i < calls; i++) toolCall(b, rng, s, Math.max(100, Math.min(2_000_000, Math.round(((budget * 0.8) / calls) * (0.5 + rng())))));
  stream(b, rng, s, 'agent_message_chunk', prose(rng, words(200)) + plantedWord(s, 'agent'));
  const used = between(rng, 2000, 150000) * turnNo;
  update(b, s, { sessionUpdate: 'usage_update', used, size: 200000, cost: { amount: Math.round(used * 0.0008) / 100, currency: 'USD' } });
  const stopReason = pick(rng, STOP_REASONS);
  const input = between(rng, 1000, 50000);
  const output = between(rng, 100, 5000);
  b.push({ kind: 'wire', t: b.tick(5, 200), dir: 'in', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id, result: { stopReason, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } } } });
}

function openSession(b: TraceBuilder, s: SessionPlan): void {
  const id = b.nextOurId();
  b.push({ kind: 'wire', t: b.tick(1, 10), dir: 'out', sessionId: s.sessionId, msg: { jsonrpc: '2.0', id, method: 'session/new', params: { cwd: s.cwd, mcpServers: [] } } });
  b.push({ kind: 'wire', t: b.tick(100, 900), dir: 'in', sessionId: s.sessionId, agentSessionId: s.agentSessionId, msg: { jsonrpc: '2.0', id, result: { sessionId: s.agentSessionId } } });
  b.push({ kind: 'session', t: b.tick(0.1, 1), action: 'created', sessionId: s.sessionId, agentSessionId: s.agentSessionId, cwd: s.cwd });
}

/** One trace file's text with the given sessions; turns are added until `target` bytes. */
export function generateTrace(rng: Rng, startedAtMs: number, target: number, sessionCount: number, plants: SessionPlan['plants'][]): { connectionId: string; text: string; sessions: GeneratedSession[] } {
  const agent = pick(rng, AGENT_BAG);
  const connectionId = ulid(rng, startedAtMs);
  const cwd = `/home/ada/src/${pick(rng, PROJECTS)}`;
  const b = new TraceBuilder(rng);
  b.push({
    kind: 'header',
    format: 'acp-workbench-trace',
    version: 1,
    connectionId,
    startedAt: new Date(startedAtMs).toISOString(),
    startedAtMs,
    workbench: { version: '0.1.0', host: pick(rng, ['electron', 'cli', 'web']) },
    agent: { id: agent.id, name: agent.name },
    launch: { command: agent.command, args: ['--acp'], cwd, env: [{ name: 'ANTHROPIC_API_KEY', redacted: true }, { name: 'HOME', value: '/home/ada' }] },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  b.push({ kind: 'spawn', t: b.tick(1, 5), pid: between(rng, 1000, 60000) });
  const init = b.nextOurId();
  b.push({ kind: 'wire', t: b.tick(1, 3), dir: 'out', msg: { jsonrpc: '2.0', id: init, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } } } });
  if (rng() < 0.3) b.push({ kind: 'stderr', t: b.tick(10, 100), text: `[${agent.command}] starting` });
  b.push({ kind: 'wire', t: b.tick(50, 900), dir: 'in', msg: { jsonrpc: '2.0', id: init, result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [], agentInfo: agent.info } } });
  const plans: SessionPlan[] = [];
  const sessions: GeneratedSession[] = [];
  for (let i = 0; i < sessionCount; i++) {
    const sessionId = ulid(rng, startedAtMs + Math.round(b.t) + i);
    const plan: SessionPlan = { sessionId, agentSessionId: `${agent.id}-${hex(rng, 8)}`, cwd, plants: [...(plants[i] ?? [])] };
    plans.push(plan);
    openSession(b, plan);
    const before = b.bytes;
    let turns = 0;
    const share = target / sessionCount;
    while (turns === 0 || b.bytes - before < share || plan.plants.length > 0) {
      const left = share - (b.bytes - before);
      // A turn comes out somewhat bigger than its budget (message envelopes): aim a little low.
      turn(b, rng, plan, Math.max(800, 0.7 * Math.min(left, share / between(rng, 1, 4))), ++turns);
    }
    sessions.push({ sessionId, agentSessionId: plan.agentSessionId, connectionId, file: `${connectionId}.jsonl`, agentId: agent.id, cwd, turns, createdMs: startedAtMs });
  }
  b.push({ kind: 'exit', t: b.tick(10, 200), code: 0, signal: null, expected: true });
  return { connectionId, text: `${b.lines.join('\n')}\n`, sessions };
}

/** Writes `count` sessions as trace files into `dir`. */
export function generateSessions(options: GenerateOptions): GeneratedTrace[] {
  const rng = createRng(options.seed ?? 1);
  const scale = options.sizeScale ?? 1;
  const every = options.twoSessionsEvery ?? 50;
  mkdirSync(options.dir, { recursive: true });
  // Quantiles spread evenly, then shuffled: the distribution holds exactly even for small counts.
  const quantiles = Array.from({ length: options.count }, (_, i) => (i + 0.5) / options.count);
  for (let i = quantiles.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [quantiles[i], quantiles[j]] = [quantiles[j]!, quantiles[i]!];
  }
  const out: GeneratedTrace[] = [];
  let clock = options.startMs ?? Date.UTC(2026, 0, 1);
  let session = 0;
  let trace = 0;
  while (session < options.count) {
    const two = every > 0 && trace % every === every - 1 && session + 1 < options.count;
    const n = two ? 2 : 1;
    const target = Math.max(1500, Math.round((options.sizes?.[trace] ?? sizeForQuantile(quantiles[session]!)) * scale));
    const plants = Array.from({ length: n }, (_, k) => (options.plant ?? []).filter((p) => p.session === session + k).map(({ where, word }) => ({ where, word })));
    const { connectionId, text, sessions } = generateTrace(rng, clock, target, n, plants);
    const file = `${connectionId}.jsonl`;
    writeFileSync(join(options.dir, file), text);
    out.push({ file, bytes: Buffer.byteLength(text), sessions });
    clock += between(rng, 60_000, 6 * 3600_000);
    session += n;
    trace++;
  }
  return out;
}
