/**
 * `acp-workbench run` as a user runs it: the built CLI as a subprocess, driving the fixture agent
 * (and the example agent of the ACP SDK) as real subprocesses. What the agent received is read from
 * the fixture's received log.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildSessionTranscript } from '../../../common/transcript/rebuild';
import { entryList } from '../../../common/transcript/model';
import { FIXTURE_AGENT } from '../../core/acp/test-support/fixture-world';
import { readTraceFile } from '../../core/history/trace-reader';
import { BUILT_CLI, runBuiltCli } from '../test-support/run-cli';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEGACY_EXAMPLE_AGENT = resolve(__dirname, '..', '..', '..', 'node_modules', 'acp-sdk-legacy', 'dist', 'examples', 'agent.js');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  events: Json[];
  stdout: string;
  stderr: string;
  /** What the fixture agent received, in order. */
  received: Json[];
  cwd: string;
}

function workspace() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-run-')));
  dirs.push(base);
  const cwd = join(base, 'project');
  mkdirSync(cwd);
  return { base, cwd, data: join(base, 'data'), log: join(base, 'received.jsonl') };
}

/** `run` against the fixture agent playing `scenario` (a shipped name or an object). */
async function run(scenario: string | object, args: string[], setup?: (cwd: string) => void): Promise<Run> {
  const ws = workspace();
  setup?.(ws.cwd);
  let scenarioArg = scenario as string;
  if (typeof scenario !== 'string') {
    scenarioArg = join(ws.base, 'scenario.json');
    writeFileSync(scenarioArg, JSON.stringify(scenario));
  }
  const agentCmd = `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenarioArg}" --received-log "${ws.log}" --max-lifetime-ms 120000`;
  const r = await runBuiltCli(['run', '--agent-cmd', agentCmd, '--cwd', ws.cwd, '--data-dir', ws.data, ...args], { timeoutMs: 60_000 });
  const events = args.includes('--json') ? r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json) : [];
  const received = existsSync(ws.log)
    ? readFileSync(ws.log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as Json).message as Json)
    : [];
  return { ...r, events, received, cwd: ws.cwd };
}

const summaryOf = (r: Run) => r.events.find((e) => e.type === 'summary')!;
/** Our answers to the agent's permission requests, as the agent received them. */
const permissionAnswers = (r: Run) => r.received.filter((m) => m && m.method === undefined && m.result?.outcome !== undefined);

describe('acp-workbench run', () => {
  it('runs a full turn and streams events, ending with a summary', async () => {
    const r = await run('full-turn', ['--prompt', 'greet', '--approve', 'all', '--json'], (cwd) => writeFileSync(join(cwd, 'hello.txt'), 'Hello\n'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const types = r.events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['starting', 'initialized', 'session']);
    expect(types.slice(-2)).toEqual(['turn_end', 'summary']);
    expect(new Set(types)).toEqual(new Set(['starting', 'initialized', 'session', 'update', 'permission', 'turn_end', 'summary']));
    const session = r.events.find((e) => e.type === 'session')!;
    const summary = summaryOf(r);
    expect(summary).toEqual({
      type: 'summary',
      agent: { index: 0, label: 'node' },
      id: session.id,
      agentSessionId: 'fixture-session-1',
      stopReason: 'end_turn',
      error: null,
      updates: types.filter((t) => t === 'update').length,
      toolCalls: 3,
      permissionRequests: 1,
      filesChanged: [join(r.cwd, 'hello.txt')],
      firstUpdateMs: expect.any(Number),
      durationMs: expect.any(Number),
      usage: { used: 5300, size: 200000, cost: { amount: 0.042, currency: 'USD' }, totalTokens: 5300, inputTokens: 4800, outputTokens: 500 },
      trace: session.trace,
    });
    expect(r.events.find((e) => e.type === 'permission')).toMatchObject({ toolCallId: 'edit-1', outcome: 'selected', optionId: 'allow-once', by: 'policy' });
    expect(readFileSync(join(r.cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
    // The trace rebuilds to a transcript with the same turn.
    const trace = await readTraceFile(summary.trace);
    const transcript = rebuildSessionTranscript(trace.records, summary.id);
    expect(entryList(transcript).at(-1)).toMatchObject({ kind: 'turn_end', stopReason: 'end_turn' });
  });

  it('counts updates sent before the session/new answer, and emits them after the session event', async () => {
    const r = await run('updates-before-new', ['--prompt', 'hi', '--json']);
    expect(r.code).toBe(0);
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('session')).toBeLessThan(types.indexOf('update'));
    const updates = r.events.filter((e) => e.type === 'update').map((e) => e.update.sessionUpdate);
    expect(updates.slice(0, 3)).toEqual(['session_info_update', 'usage_update', 'available_commands_update']);
    const summary = summaryOf(r);
    expect(summary.updates).toBe(updates.length);
    const trace = await readTraceFile(summary.trace);
    const inTrace = trace.records.filter((x) => x.kind === 'wire' && x.msg.method === 'session/update');
    expect(summary.updates).toBe(inTrace.length);
    const kinds = entryList(rebuildSessionTranscript(trace.records, summary.id)).map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['session_info', 'usage', 'available_commands']);
  });

  it('exits 4 when the agent crashes mid-turn, with its stderr tail', async () => {
    const r = await run('crash-mid-turn', ['--prompt', 'go', '--json']);
    expect(r.code).toBe(4);
    const error = r.events.find((e) => e.type === 'error')!;
    expect(error.message).toBe('node exited during the turn (exit code 3)');
    expect(error.stderrTail).toContain('panic: something went terribly wrong (fixture crash)');
    expect(summaryOf(r)).toMatchObject({ stopReason: null, error: 'node exited during the turn (exit code 3)', toolCalls: 1 });
  });

  it('exits 4 on --timeout when the agent ignores the cancel', async () => {
    const r = await run('hang', ['--prompt', 'ignore cancel', '--timeout', '1', '--json']);
    expect(r.code).toBe(4);
    expect(r.events.find((e) => e.type === 'cancel')).toMatchObject({ by: 'timeout' });
    expect(summaryOf(r).error).toBe('the turn did not finish within 1 s and the agent did not answer the cancel; it was stopped');
    expect(r.received.filter((m) => m?.method === 'session/cancel')).toHaveLength(1);
  });

  it('exits 4 on --timeout even when the agent answers the cancel', async () => {
    const r = await run('hang', ['--prompt', 'think', '--timeout', '1', '--json']);
    expect(r.code).toBe(4);
    const message = 'the turn did not finish within 1 s; it was cancelled';
    expect(r.events.filter((e) => e.type === 'error').map((e) => e.message)).toEqual([message]);
    expect(summaryOf(r)).toMatchObject({ stopReason: 'cancelled', error: message });
  });

  it('cancels with --cancel-after and reports stopReason cancelled (exit 0)', async () => {
    const r = await run('hang', ['--prompt', 'think', '--cancel-after', '300', '--json']);
    expect(r.code).toBe(0);
    expect(summaryOf(r)).toMatchObject({ stopReason: 'cancelled', error: null });
  });

  it('keeps stdout noise out of the protocol: no -32700 to the agent', async () => {
    const r = await run('noise', ['--prompt', 'go', '--json']);
    expect(r.code).toBe(0);
    expect(r.received.filter((m) => m === undefined || m.id === null || m.error?.code === -32700)).toEqual([]);
    const trace = await readTraceFile(summaryOf(r).trace);
    expect(trace.records.filter((x) => x.kind === 'noise')).toHaveLength(5);
  });

  describe('--approve', () => {
    const scenario = {
      defaultPrompt: {
        steps: [
          { toolCall: { toolCallId: 'look', title: 'Read notes.txt', kind: 'read' } },
          { permission: { toolCall: { toolCallId: 'look' } } },
          { toolCall: { toolCallId: 'change', title: 'Edit notes.txt', kind: 'edit' } },
          { permission: { toolCall: { toolCallId: 'change' } } },
        ],
      },
    };
    const chosen = (r: Run) => permissionAnswers(r).map((m) => m.result.outcome.optionId ?? m.result.outcome.outcome);

    it.each([
      ['ask', ['reject-once', 'reject-once']], // no terminal: nobody to ask, so none
      ['all', ['allow-once', 'allow-once']],
      ['reads', ['allow-once', 'reject-once']],
      ['none', ['reject-once', 'reject-once']],
    ])('%s: the agent receives %j', async (policy, expected) => {
      const r = await run(scenario, ['--prompt', 'go', '--approve', policy, '--json']);
      expect(r.code).toBe(0);
      expect(chosen(r)).toEqual(expected);
      const events = r.events.filter((e) => e.type === 'permission');
      expect(events.map((e) => [e.toolCallId, e.optionId, e.by])).toEqual([
        ['look', expected[0], 'policy'],
        ['change', expected[1], 'policy'],
      ]);
      expect(summaryOf(r).permissionRequests).toBe(2);
    });
  });

  // `script` (util-linux) gives the CLI a terminal, so `--approve ask` has a person to ask.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('asks at a terminal with --approve ask, and applies an "always" answer to the next request', async () => {
    const ws = workspace();
    const scenario = join(ws.base, 'scenario.json');
    const edit = (id: string) => [{ toolCall: { toolCallId: id, title: `Edit ${id}.txt`, kind: 'edit' } }, { permission: { toolCall: { toolCallId: id } } }];
    writeFileSync(scenario, JSON.stringify({ defaultPrompt: { steps: [...edit('a'), ...edit('b')] } }));
    const q = (p: string) => `'${p}'`;
    const agentCmd = `"${process.execPath}" "${FIXTURE_AGENT}" --scenario "${scenario}" --received-log "${ws.log}" --max-lifetime-ms 120000`;
    const cli = [process.execPath, BUILT_CLI, 'run', '--agent-cmd', agentCmd, '--cwd', ws.cwd, '--data-dir', ws.data, '--prompt', 'go'];
    const child = spawn('script', ['-qec', cli.map((w) => q(w.replace(/'/g, `'\\''`))).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let asked = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('Choose an option number').length - 1 > asked) {
        asked++;
        child.stdin.write('2\r'); // 2 = "Always allow"
      }
    });
    const stuck = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | null>((done) => child.on('exit', done)).finally(() => clearTimeout(stuck));
    expect(code).toBe(0);
    expect(asked).toBe(1);
    expect(out).toContain('[node] permission requested: Edit a.txt');
    expect(out).toContain('? permission selected (allow-always) by user');
    expect(out).toContain('? permission selected (allow-always) by remembered');
    const received = readFileSync(ws.log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as Json).message as Json);
    const answers = received.filter((m) => m.result?.outcome !== undefined).map((m) => m.result.outcome.optionId);
    expect(answers).toEqual(['allow-always', 'allow-always']);
  }, 60_000);

  it('exits 3 when the agent cannot be started or initialized', async () => {
    const v2 = await run({ initialize: { protocolVersion: 2 } }, ['--prompt', 'x', '--json']);
    expect(v2.code).toBe(3);
    expect(v2.events.find((e) => e.type === 'error')!.message).toContain('it answered version 2, the workbench speaks 1');
    const auth = await run('auth-required', ['--prompt', 'x', '--json']);
    expect(auth.code).toBe(3);
    expect(auth.events.map((e) => e.type)).toEqual(['starting', 'initialized', 'error', 'summary']);
    expect(auth.events.find((e) => e.type === 'error')!.message).toContain('fixture-login (Log in to Fixture; authenticate)');
    const missing = await runBuiltCli(['run', '--agent-cmd', '/nonexistent/agent --acp', '--prompt', 'x', '--data-dir', join(workspace().base, 'd')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('command "/nonexistent/agent" was not found');
  });

  it('prints a readable transcript without --json', async () => {
    const r = await run('basic-text', ['--prompt', 'hello there']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hello! You said: hello there\n-- turn ended: end_turn\n');
    expect(r.stderr).toMatch(/\[node\] done: stop end_turn, 3 updates, 0 tool calls, 0 permission requests, 0 files changed/);
  });

  it('runs the example agent shipped in @agentclientprotocol/sdk 0.2x', async () => {
    const ws = workspace();
    const r = await runBuiltCli(
      ['run', '--agent-cmd', `"${process.execPath}" "${LEGACY_EXAMPLE_AGENT}"`, '--cwd', ws.cwd, '--data-dir', ws.data, '--prompt', 'hello', '--approve', 'all', '--json'],
      { timeoutMs: 60_000 },
    );
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Json);
    const summary = events.find((e) => e.type === 'summary')!;
    expect(summary).toMatchObject({ stopReason: 'end_turn', error: null, toolCalls: 2, permissionRequests: 1 });
    expect(summary.updates).toBeGreaterThan(0);
    expect(existsSync(summary.trace)).toBe(true);
    expect(events.find((e) => e.type === 'permission')).toMatchObject({ toolCallId: 'call_2', outcome: 'selected', optionId: 'allow' });
  }, 60_000);
});

describe('acp-workbench run and sensitive files (issue #12)', () => {
  const withEnv = (cwd: string) => {
    writeFileSync(join(cwd, '.env'), 'API_KEY=s3cr3t\n');
    writeFileSync(join(cwd, 'notes.txt'), 'plain');
  };
  /** Our answers to the agent's requests — its two fs reads (notes.txt, then .env) — as it received them. */
  const readAnswers = (r: Run) => r.received.filter((m) => m && m.method === undefined);

  it('--approve all does not let an agent read .env: refused with a message saying how to allow it', async () => {
    const r = await run('sensitive-files', ['--prompt', 'read them', '--approve', 'all', '--json'], withEnv);
    expect(r.code, r.stderr).toBe(0);
    const [notes, env] = readAnswers(r);
    expect(notes!.result).toEqual({ content: 'plain' });
    expect(readAnswers(r)).toHaveLength(2);
    expect(env!.error).toMatchObject({ code: -32602, data: { reason: 'sensitive', refusal: 'no-person' } });
    expect(env!.error.message).toContain(`${join(r.cwd, '.env')} is a sensitive file`);
    expect(env!.error.message).toContain('--allow-sensitive');
    expect(r.stdout).not.toContain('s3cr3t');
    expect(r.events.find((e) => e.type === 'permission')).toMatchObject({ toolCallId: expect.stringMatching(/^sensitive-file:/), optionId: 'reject-once', by: 'sensitive-path' });
  });

  it('--capability switches a client capability off for an --agent-cmd agent: not advertised, and refused if asked', async () => {
    const r = await run('full-turn', ['--prompt', 'change the greeting', '--approve', 'all', '--capability', 'fs.readTextFile=off', '--json'], (cwd) =>
      writeFileSync(join(cwd, 'hello.txt'), 'Hello\n'),
    );
    expect(r.code, r.stderr).toBe(0);
    const init = r.received.find((m) => m.method === 'initialize');
    expect(init!.params.clientCapabilities.fs).toEqual({ readTextFile: false, writeTextFile: true });
    expect(init!.params.clientCapabilities.terminal).toBe(true);
    // The scenario reads hello.txt through the client anyway: the read is refused, its tool call fails.
    const readRequest = r.received.find((m) => m.method === undefined && m.error !== undefined);
    expect(readRequest!.error.message).toMatch(/read_text_file|readTextFile/);
    expect(readFileSync(join(r.cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
  });

  it('--capability refuses a name it does not know, before starting anything', async () => {
    const r = await run('full-turn', ['--prompt', 'x', '--capability', 'fs.read=off']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown capability "fs.read"');
    expect(r.received).toEqual([]);
  });

  it('--allow-sensitive lets it read .env, and says who allowed it', async () => {
    const r = await run('sensitive-files', ['--prompt', 'read them', '--approve', 'none', '--allow-sensitive', '--json'], withEnv);
    expect(r.code, r.stderr).toBe(0);
    expect(readAnswers(r).map((m) => m.result)).toEqual([{ content: 'plain' }, { content: 'API_KEY=s3cr3t\n' }]);
    expect(r.events.find((e) => e.type === 'permission')).toMatchObject({ optionId: 'allow-once', by: 'policy' });
  });
});
