/**
 * `acp-workbench replay` as a client meets it: a session recorded by `run` against the fixture
 * agent is replayed, in another folder, to `run` again (the replay is the agent command), and gives
 * the same transcript and summary figures. A client that diverges is stopped with an error that
 * names the first mismatch.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryList } from '../../../common/transcript/model';
import { rebuildSessionTranscript } from '../../../common/transcript/rebuild';
import { FIXTURE_AGENT, SCENARIOS } from '../../core/acp/test-support/fixture-world';
import { readTraceFile } from '../../core/history/trace-reader';
import { BUILT_CLI, runBuiltCli } from '../test-support/run-cli';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-replay-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

interface Run {
  code: number | null;
  stderr: string;
  events: Json[];
  summary: Json;
  cwd: string;
}

/** `run --json` with `agentCmd` in a fresh folder (hello.txt in it, as full-turn expects). */
async function run(agentCmd: string, args: string[]): Promise<Run> {
  const dir = join(base, String(++n));
  const cwd = join(dir, 'project');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'hello.txt'), 'Hello\n');
  const r = await runBuiltCli(['run', '--json', '--agent-cmd', agentCmd, '--cwd', cwd, '--data-dir', join(dir, 'data'), '--prompt', 'greet', ...args], { timeoutMs: 60_000 });
  const events = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);
  return { code: r.code, stderr: r.stderr, events, summary: events.find((e) => e.type === 'summary')!, cwd };
}

const fixture = (scenario: string) => `"${process.execPath}" "${FIXTURE_AGENT}" --scenario ${scenario} --max-lifetime-ms 60000`;
const replay = (trace: string, ...flags: string[]) => `"${process.execPath}" "${BUILT_CLI}" replay "${trace}" ${flags.join(' ')}`;

/** The figures a replay must reproduce (times, ids and the trace file differ by nature). */
function figures(r: Run): Json {
  const { stopReason, error, updates, toolCalls, permissionRequests, filesChanged, usage } = r.summary;
  return { stopReason, error, updates, toolCalls, permissionRequests, filesChanged: filesChanged.map((p: string) => p.replace(r.cwd, '<cwd>')), usage };
}

/** The rebuilt transcript, with times dropped, the session folder named <cwd> and the client's terminal ids (they embed its pid) normalized. */
async function transcript(r: Run): Promise<Json[]> {
  const trace = await readTraceFile(r.summary.trace);
  const entries = entryList(rebuildSessionTranscript(trace.records, r.summary.id));
  const strip = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(r.cwd).join('<cwd>').replace(/^term-\d+-/, 'term-<pid>-');
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !['t', 'decidedT', 'durationMs'].includes(k)).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  return entries.map((e) => strip(e) as Json);
}

describe('acp-workbench replay', () => {
  it('replays a full turn in another folder with the same transcript and figures', async () => {
    const original = await run(fixture('full-turn'), ['--approve', 'all']);
    expect(original.code).toBe(0);
    const replayed = await run(replay(original.summary.trace, '--delay', 'none'), ['--approve', 'all']);
    expect(replayed.code).toBe(0);
    expect(replayed.stderr).toBe('');
    expect(replayed.cwd).not.toBe(original.cwd);
    expect(figures(replayed)).toEqual(figures(original));
    expect(figures(original)).toMatchObject({ stopReason: 'end_turn', toolCalls: 3, permissionRequests: 1, filesChanged: ['<cwd>/hello.txt'] });
    expect(await transcript(replayed)).toEqual(await transcript(original));
    // The client really did the work in its own folder.
    expect(readFileSync(join(replayed.cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
  });

  it('replays a cancelled turn with recorded timing: the cancel lands where it was recorded', async () => {
    const original = await run(fixture('slow-stream'), ['--cancel-after', '300']);
    expect(original.summary.stopReason).toBe('cancelled');
    const replayed = await run(replay(original.summary.trace), ['--cancel-after', '300']);
    expect(replayed.code).toBe(0);
    expect(figures(replayed)).toEqual(figures(original));
    expect(await transcript(replayed)).toEqual(await transcript(original));
  });

  it('replays a crash: the same updates, the same stderr line and the same exit code', async () => {
    const original = await run(fixture('crash-mid-turn'), []);
    expect(original.code).toBe(4);
    const replayed = await run(replay(original.summary.trace, '--delay', 'none'), []);
    expect(replayed.code).toBe(4);
    expect(figures(replayed)).toEqual(figures(original));
    expect(replayed.summary.error).toContain('exit code 3');
    const replayedStderr = (await readTraceFile(replayed.summary.trace)).records.filter((r) => r.kind === 'stderr').map((r) => (r as Json).text);
    expect(replayedStderr).toContain('panic: something went terribly wrong (fixture crash)');
  });

  it('stops a client that answers a permission request differently, naming the mismatch', async () => {
    const original = await run(fixture('full-turn'), ['--approve', 'all']);
    const replayed = await run(replay(original.summary.trace, '--delay', 'none'), ['--approve', 'none']);
    expect(replayed.code).toBe(4);
    expect(replayed.summary.error).toMatch(/the client diverged from the recording: the client answered the permission request with .*reject-once.*; the recording has .*allow-once.* \(trace line \d+\)/);
    const trace = await readTraceFile(replayed.summary.trace);
    const stderr = trace.records.filter((r) => r.kind === 'stderr').map((r) => (r as Json).text as string);
    expect(stderr.some((l) => l.startsWith('acp-workbench replay: the client diverged'))).toBe(true);
    expect(trace.records.find((r) => r.kind === 'exit')).toMatchObject({ code: 1 });
    // Nothing was written: the recorded write came after the permission.
    expect(readFileSync(join(replayed.cwd, 'hello.txt'), 'utf8')).toBe('Hello\n');
  });

  it('refuses a trace it cannot read and a session the trace does not have', async () => {
    const missing = await runBuiltCli(['replay', join(base, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const original = await run(fixture('basic-text'), []);
    const unknown = await runBuiltCli(['replay', original.summary.trace, '--session', 'NOPE']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`no session NOPE in ${original.summary.trace}; sessions: ${original.summary.id} (fixture-session-1)`);
    const bad = await runBuiltCli(['replay', original.summary.trace, '--delay', 'fast']);
    expect(bad.code).toBe(2);
  });

  it('plays one session of a trace chosen by its agent session id', async () => {
    const original = await run(fixture('basic-text'), []);
    const replayed = await run(replay(original.summary.trace, '--session', 'fixture-session-1', '--delay', 'none'), []);
    expect(replayed.code).toBe(0);
    expect(figures(replayed)).toEqual(figures(original));
    expect(await transcript(replayed)).toEqual(await transcript(original));
  });

  it('replays a whole check session (several sessions, a held permission, a cancel): check finds the same', async () => {
    const scenario = JSON.parse(readFileSync(join(SCENARIOS, 'conformance-clean.json'), 'utf8'));
    scenario.defaultPrompt.steps.unshift({ noise: 'hello noise' });
    scenario.defaultPrompt.steps.at(-1).after = [{ text: 'a tail' }];
    const dir = join(base, String(++n));
    mkdirSync(join(dir, 'a'), { recursive: true });
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify(scenario));
    const check = async (agentCmd: string, cwd: string) => {
      const r = await runBuiltCli(['check', '--json', '--agent-cmd', agentCmd, '--cwd', join(dir, cwd), '--data-dir', join(dir, `data-${cwd}`)], { timeoutMs: 60_000 });
      return { code: r.code, report: JSON.parse(r.stdout) as Json };
    };
    const original = await check(fixture(`"${join(dir, 'scenario.json')}"`), 'a');
    expect(original.report.findings.map((f: Json) => f.rule)).toEqual(['stdout-noise', 'update-after-turn']);
    const replayed = await check(replay(original.report.trace), 'b');
    expect(replayed.code).toBe(original.code);
    expect(replayed.report.findings).toEqual(original.report.findings);
    expect(replayed.report.steps.map((s: Json) => [s.step, s.status])).toEqual(original.report.steps.map((s: Json) => [s.step, s.status]));
  });
});
