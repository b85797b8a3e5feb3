import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProcess, AgentSpawnError, type AgentCommand, type AgentProcessOptions } from './agent-process';
import { ProcessRegistry, readProcessGroup, readProcessStartTime } from './process-registry';

const support = join(__dirname, 'test-support');
const started: AgentProcess[] = [];
const strayPids: number[] = [];

function start(spec: AgentCommand, options?: AgentProcessOptions): AgentProcess {
  const agent = new AgentProcess(spec, options);
  started.push(agent);
  return agent;
}

function node(script: string, options?: AgentProcessOptions): AgentProcess {
  return start({ command: process.execPath, args: ['-e', script] }, options);
}

/**
 * Gone = kill(pid, 0) fails, or only a zombie is left: the init process of some containers (this
 * CI's included) never reaps orphans, so a killed grandchild stays a zombie forever.
 */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return process.platform === 'linux';
  }
}

async function poll(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function collectStdout(agent: AgentProcess): { text: () => string } {
  const chunks: Buffer[] = [];
  agent.onStdout((chunk) => chunks.push(Buffer.from(chunk))); // valid only during the call
  return { text: () => Buffer.concat(chunks).toString() };
}

async function firstStdoutJson<T>(agent: AgentProcess): Promise<T> {
  const out = collectStdout(agent);
  await poll(() => out.text().includes('\n'), 'the first stdout line');
  return JSON.parse(out.text().split('\n')[0]!) as T;
}

afterEach(async () => {
  for (const pid of strayPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.all(started.splice(0).map((agent) => agent.stop({ stdinGraceMs: 100, termGraceMs: 100 })));
});

describe('AgentProcess pipes', () => {
  it('passes stdin to the agent, delivers stdout, and reports the exit code', async () => {
    const agent = node("process.stdin.on('data', (d) => process.stdout.write('echo:' + d)); process.stdin.on('end', () => process.exit(7))");
    const out = collectStdout(agent);
    await agent.spawned;
    expect(agent.pid).toBeGreaterThan(0);
    await expect(agent.write('hello\n')).resolves.toBe(true);
    await poll(() => out.text() === 'echo:hello\n', 'the echo');
    const exits: unknown[] = [];
    agent.onExit((exit) => exits.push(exit));
    agent.closeStdin();
    await expect(agent.exited).resolves.toEqual({ code: 7, signal: null });
    expect(exits).toEqual([{ code: 7, signal: null }]);
    expect(agent.exitInfo).toEqual({ code: 7, signal: null });
    await expect(agent.write('late\n')).resolves.toBe(false);
  });

  it('passes env and cwd, in its own process group', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'acpwb-agent-'));
    try {
      const agent = start({
        command: process.execPath,
        args: ['-e', 'process.stdout.write(JSON.stringify({ v: process.env.WB_TEST, cwd: process.cwd() }) + "\\n"); process.stdin.resume()'],
        env: { WB_TEST: 'from-spec', PATH: process.env.PATH },
        cwd,
      });
      const seen = await firstStdoutJson<{ v: string; cwd: string }>(agent);
      expect(seen).toEqual({ v: 'from-spec', cwd: expect.stringContaining('acpwb-agent-') });
      // detached: the agent leads its own group, so signalling that group never reaches us.
      if (process.platform !== 'win32') expect(readProcessGroup(agent.pid!)).toBe(agent.pid);
      agent.closeStdin();
      await expect(agent.exited).resolves.toEqual({ code: 0, signal: null });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('keeps stderr as bounded lines, emits each line, and keeps the tail', async () => {
    const agent = node(
      "let s = ''; for (let i = 0; i < 5000; i++) s += 'line ' + String(i).padStart(5, '0') + ' ' + 'x'.repeat(80) + (i % 2 ? '\\r\\n' : '\\n'); process.stderr.write(s + 'x'.repeat(3000) + 'end-without-newline');",
      { stderrRingBytes: 4096, stderrMaxLineChars: 1000 },
    );
    const lines: string[] = [];
    agent.onStderrLine((line) => lines.push(line));
    await agent.exited;
    await poll(() => lines.length >= 5004, 'all stderr lines');
    expect(lines.slice(0, 2)).toEqual([`line 00000 ${'x'.repeat(80)}`, `line 00001 ${'x'.repeat(80)}`]);
    expect(lines.at(4999)).toBe(`line 04999 ${'x'.repeat(80)}`);
    // The long unterminated tail is cut into pieces of at most 1000 characters.
    expect(lines.slice(5000)).toEqual(['x'.repeat(1000), 'x'.repeat(1000), 'x'.repeat(1000), 'end-without-newline']);
    const tail = agent.stderrTail(1000);
    expect(tail.at(-1)).toBe('end-without-newline');
    expect(tail.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)).toBeLessThanOrEqual(4096);
    expect(tail.length).toBeGreaterThan(3);
    expect(agent.stderrTail(2)).toEqual(['x'.repeat(1000), 'end-without-newline']);
  });

  it('never blocks on a full stdout pipe, even when nobody listens', async () => {
    const agent = node("process.stdout.write('y'.repeat(8 * 1024 * 1024), () => process.exit(3))");
    await expect(agent.exited).resolves.toEqual({ code: 3, signal: null });
  });

  it('reads stdout in order through one reused buffer, and not at all while paused', async () => {
    const blocks = 64;
    const agent = node(
      `let k = 0; const next = () => { if (k === ${blocks}) return process.exit(0); const b = Buffer.alloc(65536, k++ % 251); process.stdout.write(b) ? setImmediate(next) : process.stdout.once('drain', next); }; next();`,
    );
    const memory = new Set<ArrayBufferLike>();
    let bytes = 0;
    let inOrder = true;
    let paused = false;
    let whilePaused = 0;
    agent.onStdout((chunk) => {
      if (paused) whilePaused++;
      memory.add(chunk.buffer);
      for (const b of chunk) {
        if (b !== Math.floor(bytes / 65536) % 251) inOrder = false;
        bytes++;
      }
      if (bytes === chunk.length) {
        paused = true;
        agent.pauseStdout();
      }
    });
    let ended = false;
    agent.onStdoutEnd(() => (ended = true));
    await poll(() => paused, 'the first chunk');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(whilePaused).toBe(0);
    expect(agent.exitInfo).toBeUndefined(); // it waits on its full pipe
    paused = false;
    agent.resumeStdout();
    await poll(() => ended, 'the end of stdout');
    expect({ bytes, inOrder, buffers: memory.size }).toEqual({ bytes: blocks * 65536, inOrder: true, buffers: 1 });
  });

  it('queues writes behind backpressure and delivers every byte in order', async () => {
    // The agent reads nothing for a while, then counts bytes and checks their order.
    const agent = node(
      "let n = 0, ok = true; setTimeout(() => process.stdin.on('data', (d) => { for (const b of d) { if (b !== (n % 251)) ok = false; n++; } }), 300); process.stdin.on('end', () => { process.stdout.write(JSON.stringify({ n, ok }) + '\\n'); })",
    );
    const out = collectStdout(agent);
    await agent.spawned;
    const piece = 64 * 1024;
    const total = 10 * 1024 * 1024;
    const writes: Array<Promise<boolean>> = [];
    for (let offset = 0; offset < total; offset += piece) {
      const bytes = Buffer.alloc(piece);
      for (let i = 0; i < piece; i++) bytes[i] = (offset + i) % 251;
      writes.push(agent.write(bytes));
    }
    // No pipe holds 10 MiB: most of it is waiting in our queue right now.
    expect(agent.queuedBytes).toBeGreaterThan(total / 2);
    expect(await Promise.all(writes)).toEqual(writes.map(() => true));
    agent.closeStdin();
    await poll(() => out.text().includes('\n'), 'the byte count');
    expect(JSON.parse(out.text())).toEqual({ n: total, ok: true });
  });

  it('never throws when writing to an agent that died (EPIPE), and reports the writes as dropped', async () => {
    const agent = node("process.stdin.destroy(); setTimeout(() => process.exit(0), 200)");
    await agent.spawned;
    const big = Buffer.alloc(1024 * 1024, 0x61);
    const results: Array<Promise<boolean>> = [];
    for (let i = 0; i < 20; i++) results.push(agent.write(big));
    await agent.exited;
    for (let i = 0; i < 5; i++) results.push(agent.write('after death\n'));
    const settled = await Promise.all(results);
    expect(settled.includes(false)).toBe(true);
    expect(settled.slice(-5)).toEqual([false, false, false, false, false]);
  });
});

describe('AgentProcess start failures', () => {
  it('reports a missing command clearly, naming it and the PATH searched', async () => {
    const agent = start({ command: 'acpwb-no-such-agent-xyz', env: { PATH: '/nowhere/bin' } });
    const error = await agent.spawned.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentSpawnError);
    expect((error as AgentSpawnError).code).toBe('ENOENT');
    expect((error as Error).message).toContain('"acpwb-no-such-agent-xyz" was not found');
    expect((error as Error).message).toContain('PATH searched: /nowhere/bin');
    const exit = await agent.exited;
    expect(exit.spawnError).toBe(error);
    let ended = false;
    agent.onStdoutEnd(() => (ended = true));
    await poll(() => ended, 'stdout end');
    await expect(agent.write('x')).resolves.toBe(false);
    await expect(agent.stop()).resolves.toBe(exit);
  });

  it('says so when the working directory does not exist', async () => {
    const agent = start({ command: process.execPath, args: ['-e', ''], cwd: join(tmpdir(), 'acpwb-missing-dir-xyz') });
    await expect(agent.spawned).rejects.toThrow(/working directory .*acpwb-missing-dir-xyz does not exist/);
  });
});

describe('AgentProcess stop', () => {
  it('lets a well-behaved agent exit on stdin EOF, without signals', async () => {
    const agent = node("process.stdin.resume(); process.stdin.on('end', () => process.exit(0))");
    await agent.spawned;
    await expect(agent.stop({ stdinGraceMs: 10_000 })).resolves.toEqual({ code: 0, signal: null });
  });

  it('sees that exit itself: no timer has to fire before stop() resolves (no polling)', async () => {
    const agent = node("process.stdin.resume(); process.stdin.on('end', () => process.exit(0))");
    await agent.spawned;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      await expect(agent.stop({ stdinGraceMs: 10_000 })).resolves.toEqual({ code: 0, signal: null });
      expect(vi.getTimerCount()).toBeLessThanOrEqual(1); // at most the unref'd stdout drain guard, never fired
    } finally {
      vi.useRealTimers();
    }
  });

  it('kills an agent that ignores stdin EOF and SIGTERM with SIGKILL', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'stubborn-agent.cjs')] });
    const out = collectStdout(agent);
    await poll(() => out.text() === 'ready\n', 'the agent to be ready');
    const pid = agent.pid!;
    await expect(agent.stop({ stdinGraceMs: 200, termGraceMs: 300 })).resolves.toEqual({ code: null, signal: 'SIGKILL' });
    expect(isGone(pid)).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('kills the whole group: no grandchild is left behind', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'wrapper-agent.cjs'), 'stay'] }, { leftoverGraceMs: 300 });
    const { grandchild } = await firstStdoutJson<{ grandchild: number }>(agent);
    strayPids.push(grandchild);
    expect(isGone(grandchild)).toBe(false);
    const exit = await agent.stop({ stdinGraceMs: 200, termGraceMs: 300 });
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isGone(grandchild)).toBe(true);
    expect(isGone(agent.pid!)).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('stop() resolves only once a wrapper that exits on EOF has lost its leftover child too', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'wrapper-agent.cjs'), 'exit-on-eof'] }, { leftoverGraceMs: 300 });
    const { grandchild } = await firstStdoutJson<{ grandchild: number }>(agent);
    strayPids.push(grandchild);
    await expect(agent.stop({ stdinGraceMs: 10_000, termGraceMs: 300 })).resolves.toEqual({ code: 0, signal: null });
    expect(isGone(grandchild)).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('cleans up what an agent left in its group when it exits by itself', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'wrapper-agent.cjs'), 'exit-now'] }, { leftoverGraceMs: 300 });
    const { grandchild } = await firstStdoutJson<{ grandchild: number }>(agent);
    strayPids.push(grandchild);
    let stdoutEnded = false;
    agent.onStdoutEnd(() => (stdoutEnded = true));
    await expect(agent.exited).resolves.toEqual({ code: 0, signal: null });
    // The grandchild ignores SIGTERM and holds stdout open: SIGKILL after the grace period frees both.
    await poll(() => isGone(grandchild), 'the grandchild to be killed');
    await poll(() => stdoutEnded, 'stdout to end');
  });

  it.skipIf(process.platform === 'win32')('gives up on stdout after exit when an escaped child holds it open', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'wrapper-agent.cjs'), 'escape-now'] }, { stdoutDrainMs: 300 });
    const { grandchild } = await firstStdoutJson<{ grandchild: number }>(agent);
    strayPids.push(grandchild);
    let stdoutEnded = false;
    agent.onStdoutEnd(() => (stdoutEnded = true));
    await agent.exited;
    await poll(() => stdoutEnded, 'stdout to be given up on');
    // Outside the agent's group, so not ours to kill: only the pipe is let go.
    expect(isGone(grandchild)).toBe(false);
  });

  it('records the agent in the process registry while it runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-registry-'));
    try {
      const registry = new ProcessRegistry(dataDir);
      const agent = start({ command: process.execPath, args: [join(support, 'stubborn-agent.cjs')] }, { registry });
      await agent.spawned;
      await registry.flushed();
      const file = JSON.parse(readFileSync(registry.filePath, 'utf8')) as { owner: { pid: number }; processes: unknown[] };
      expect(file.owner.pid).toBe(process.pid);
      expect(file.processes).toEqual([
        {
          pid: agent.pid,
          pgid: process.platform === 'win32' ? null : agent.pid,
          startTime: readProcessStartTime(agent.pid!),
          command: `${process.execPath} ${join(support, 'stubborn-agent.cjs')}`,
          kind: 'agent',
          registeredAt: expect.any(String),
        },
      ]);
      if (process.platform === 'linux') expect(file.processes[0]).toMatchObject({ startTime: expect.stringMatching(/^\d+$/) });
      await agent.stop({ stdinGraceMs: 100, termGraceMs: 100 });
      expect(registry.list()).toEqual([]);
      await registry.flushed();
      expect(existsSync(registry.filePath)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('dispose is idempotent, stops the agent and drops listeners', async () => {
    const agent = start({ command: process.execPath, args: [join(support, 'stubborn-agent.cjs')] });
    let exits = 0;
    agent.onExit(() => exits++);
    await agent.spawned;
    const first = agent.dispose();
    expect(agent.dispose()).toBe(first);
    await first;
    expect(exits).toBe(1);
    expect(isGone(agent.pid!)).toBe(true);
    await expect(agent.dispose()).resolves.toBeUndefined();
    await expect(agent.stop()).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });
});
