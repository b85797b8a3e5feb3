import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isProcessRunning } from './process-registry';
import { isShellLine, TerminalManager, type TerminalInfo } from './terminals';
import { makeTmpLayout, type TmpLayout } from './test-support/fs-tmp';
import { loadSdk } from './sdk-runtime';

// The handlers throw the SDK's RequestError, which a connection loads at its start (sdk-runtime.ts).
beforeAll(() => loadSdk());

const sessionId = 's1';
const node = process.execPath;
let t: TmpLayout;
let manager: TerminalManager;
let events: string[];
let started: Array<[number, string]>;

function make(extra: Partial<ConstructorParameters<typeof TerminalManager>[0]> = {}): TerminalManager {
  manager = new TerminalManager({
    roots: { cwd: t.root },
    onCreate: (info) => events.push(`create ${info.terminalId}`),
    onExit: (id, exit) => events.push(`exit ${id} ${exit.exitCode} ${exit.signal}`),
    onRelease: (id) => events.push(`release ${id}`),
    onProcessStarted: (pid, command) => started.push([pid, command]),
    ...extra,
  });
  return manager;
}

async function rejection(p: Promise<unknown>): Promise<RequestError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RequestError);
  return err as RequestError;
}

/** Polls the terminal's output until it matches; real processes, so no fixed sleeps. */
async function outputMatching(terminalId: string, re: RegExp, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { output } = await manager.output({ sessionId, terminalId });
    if (re.test(output)) return output;
    if (Date.now() > until) throw new Error(`output never matched ${re}: ${JSON.stringify(output)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function gone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (isProcessRunning(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

beforeEach(() => {
  t = makeTmpLayout('acpwb-term-');
  events = [];
  started = [];
});
afterEach(async () => {
  await manager?.disposeAll();
  t.cleanup();
});

describe('terminal/create and output', () => {
  it('returns at once, then reports interleaved output and the exit code', async () => {
    make();
    const script = 'process.stdout.write("out1 ");setTimeout(()=>{process.stderr.write("err1 ");setTimeout(()=>{process.stdout.write("out2");process.exit(3)},50)},50)';
    const { terminalId } = await manager.create({ sessionId, command: node, args: ['-e', script] });
    expect(await manager.waitForExit({ sessionId, terminalId })).toEqual({ exitCode: 3, signal: null });
    expect(await manager.output({ sessionId, terminalId })).toEqual({
      output: 'out1 err1 out2',
      truncated: false,
      exitStatus: { exitCode: 3, signal: null },
    });
    expect(events).toEqual([`create ${terminalId}`, `exit ${terminalId} 3 null`]);
    expect(started).toEqual([[expect.any(Number), `${node} -e ${script}`]]);
  });

  it('gives no exitStatus while the command runs', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: node, args: ['-e', 'console.log("ready");setInterval(()=>{},1000)'] });
    await outputMatching(terminalId, /ready/);
    const res = await manager.output({ sessionId, terminalId });
    expect(res.exitStatus).toBeUndefined();
  });

  it('runs a whole shell line sent in command without args (claude-code-acp)', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: 'echo "$GREETING" from $(pwd) | tr a-z A-Z && exit 4', env: [{ name: 'GREETING', value: 'hi' }] });
    expect(await manager.waitForExit({ sessionId, terminalId })).toEqual({ exitCode: 4, signal: null });
    expect((await manager.output({ sessionId, terminalId })).output).toBe(`HI FROM ${t.root.toUpperCase()}\n`);
  });

  it('tells shell lines from plain commands', () => {
    expect(isShellLine('ls', undefined)).toBe(false);
    expect(isShellLine('ls -la', undefined)).toBe(true);
    expect(isShellLine('ls -la', ['-la'])).toBe(false);
    expect(isShellLine('FOO=1 make', [])).toBe(true);
    expect(isShellLine(node, [])).toBe(false);
  });

  it('truncates from the start on a character boundary', async () => {
    make();
    // 'é' is 2 bytes and the stream is 10003 bytes: keeping the last 100 cuts through an 'é'.
    const { terminalId } = await manager.create({
      sessionId,
      command: node,
      args: ['-e', 'process.stdout.write("é".repeat(5000)); process.stdout.write("END")'],
      outputByteLimit: 100,
    });
    await manager.waitForExit({ sessionId, terminalId });
    const { output, truncated } = await manager.output({ sessionId, terminalId });
    expect(truncated).toBe(true);
    expect(output.endsWith('END')).toBe(true);
    expect(output).not.toContain('\uFFFD');
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(100);
    expect(output).toBe('é'.repeat(48) + 'END');
  });

  it('keeps characters whole when a chunk boundary splits them', async () => {
    make();
    const script = 'const b=Buffer.from("€");process.stdout.write(b.subarray(0,1));setTimeout(()=>process.stdout.write(b.subarray(1)),50)';
    const { terminalId } = await manager.create({ sessionId, command: node, args: ['-e', script] });
    await manager.waitForExit({ sessionId, terminalId });
    expect((await manager.output({ sessionId, terminalId })).output).toBe('€');
  });

  it('uses the session cwd by default and an absolute cwd inside the root', async () => {
    make();
    mkdirSync(path.join(t.root, 'sub'));
    const a = await manager.create({ sessionId, command: 'pwd' });
    const b = await manager.create({ sessionId, command: 'pwd', cwd: path.join(t.root, 'sub') });
    await manager.waitForExit({ sessionId, ...a });
    await manager.waitForExit({ sessionId, ...b });
    expect((await manager.output({ sessionId, ...a })).output.trim()).toBe(t.root);
    expect((await manager.output({ sessionId, ...b })).output.trim()).toBe(path.join(t.root, 'sub'));
  });

  it('refuses a cwd outside the roots, relative, or through a symlink out', async () => {
    make();
    symlinkSync(t.outside, path.join(t.root, 'out'));
    const cases: Array<[string, string]> = [
      [t.outside, 'outside_root'],
      ['sub', 'relative'],
      [path.join(t.root, 'out'), 'outside_root'],
      [path.join(t.root, 'missing'), 'not_found'],
    ];
    for (const [cwd, reason] of cases) {
      const err = await rejection(manager.create({ sessionId, command: 'pwd', cwd }));
      expect(err.code).toBe(-32602);
      expect((err.data as { reason: string }).reason).toBe(reason);
    }
    expect(started).toEqual([]);
  });

  it('fails clearly when the program does not exist', async () => {
    make();
    const err = await rejection(manager.create({ sessionId, command: 'no-such-program-acpwb' }));
    expect(err.message).toMatch(/cannot start "no-such-program-acpwb"/);
    expect(err.data).toMatchObject({ reason: 'spawn_failed', code: 'ENOENT' });
  });
});

describe('kill, signals, release and dispose', () => {
  it('reports a signal death', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: 'kill -TERM $$' });
    expect(await manager.waitForExit({ sessionId, terminalId })).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });

  it('kill stops the whole group and the terminal stays valid', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: 'sleep 300 & echo child=$!; wait' });
    const child = Number((await outputMatching(terminalId, /child=\d+/)).match(/child=(\d+)/)![1]);
    expect(await manager.kill({ sessionId, terminalId })).toEqual({});
    const exit = await manager.waitForExit({ sessionId, terminalId });
    expect(exit.signal).toBe('SIGTERM');
    expect(await gone(child)).toBe(true);
    expect((await manager.output({ sessionId, terminalId })).exitStatus).toEqual(exit);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    make({ killGraceMs: 200 });
    const { terminalId } = await manager.create({ sessionId, command: node, args: ['-e', 'process.on("SIGTERM",()=>{});console.log("armed");setInterval(()=>{},1000)'] });
    await outputMatching(terminalId, /armed/);
    await manager.kill({ sessionId, terminalId });
    expect(await manager.waitForExit({ sessionId, terminalId })).toEqual({ exitCode: null, signal: 'SIGKILL' });
  });

  it('kill also takes down group members that ignore SIGTERM after the leader died', async () => {
    make({ killGraceMs: 200 });
    const stubborn = `${JSON.stringify(node)} -e 'process.on("SIGTERM",()=>{});console.log("c="+process.pid);setInterval(()=>{},1000)' & wait`;
    const { terminalId } = await manager.create({ sessionId, command: stubborn });
    const child = Number((await outputMatching(terminalId, /c=\d+/)).match(/c=(\d+)/)![1]);
    await manager.kill({ sessionId, terminalId });
    expect((await manager.waitForExit({ sessionId, terminalId })).signal).toBe('SIGTERM');
    expect(await gone(child)).toBe(true);
  });

  it('calls a command exited even while a background child holds its output open', async () => {
    make({ exitDrainMs: 100 });
    const { terminalId } = await manager.create({ sessionId, command: 'sleep 300 & echo bg=$!; exit 5' });
    expect(await manager.waitForExit({ sessionId, terminalId })).toEqual({ exitCode: 5, signal: null });
    const bg = Number((await manager.output({ sessionId, terminalId })).output.match(/bg=(\d+)/)![1]);
    expect(isProcessRunning(bg)).toBe(true);
    await manager.release({ sessionId, terminalId });
    expect(await gone(bg)).toBe(true);
  });

  it('release kills, invalidates the id for the agent, keeps the output for the UI', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: 'echo before; sleep 300' });
    await outputMatching(terminalId, /before/);
    const pid = manager.list(sessionId)[0]!.pid;
    await manager.release({ sessionId, terminalId });
    const err = await rejection(manager.output({ sessionId, terminalId }));
    expect(err.code).toBe(-32002);
    expect(err.message).toMatch(/unknown terminal .* released/);
    expect(await gone(pid)).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    const snap = manager.snapshot(terminalId)!;
    expect(snap.output).toBe('before\n');
    expect(snap.released).toBe(true);
    expect(events).toContain(`release ${terminalId}`);
  });

  it('wait_for_exit can be cancelled', async () => {
    make();
    const { terminalId } = await manager.create({ sessionId, command: 'sleep 300' });
    const ac = new AbortController();
    const waiting = manager.waitForExit({ sessionId, terminalId }, ac.signal);
    ac.abort();
    expect((await rejection(waiting)).code).toBe(-32800);
  });

  it('refuses unknown ids and ids of another session', async () => {
    make({ roots: () => ({ cwd: t.root }) });
    const { terminalId } = await manager.create({ sessionId, command: 'true' });
    for (const p of [{ sessionId, terminalId: 'nope' }, { sessionId: 'other', terminalId }]) {
      const err = await rejection(manager.kill(p));
      expect(err.data).toMatchObject({ reason: 'unknown_terminal', terminalId: p.terminalId });
    }
  });

  it('disposeAll leaves no process behind', async () => {
    make();
    const ids: string[] = [];
    const pids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { terminalId } = await manager.create({ sessionId, command: 'sleep 300 & echo child=$!; wait' });
      ids.push(terminalId);
    }
    for (const id of ids) {
      pids.push(Number((await outputMatching(id, /child=\d+/)).match(/child=(\d+)/)![1]));
    }
    pids.push(...manager.list().map((i: TerminalInfo) => i.pid));
    await manager.disposeAll();
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    for (const id of ids) {
      expect(manager.snapshot(id)!.exitStatus?.signal).toBe('SIGKILL');
      expect(events).toContain(`release ${id}`);
    }
  });
});
