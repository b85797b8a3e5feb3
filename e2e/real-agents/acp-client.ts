/**
 * A deliberately small, hand-written ACP client for the smoke check: newline-delimited JSON-RPC
 * over an agent subprocess's stdio, with the client methods real agents call (permission, fs,
 * terminal) implemented just enough. It records everything so the smoke report can say what
 * each agent did. The workbench's own client core is what the real suite will use.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { TerminalHost } from './terminal-host';
import type { AgentLaunch } from './agents';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly error: RpcError,
  ) {
    super(`${method} failed: ${error.code} ${error.message}${error.data !== undefined ? ` ${JSON.stringify(error.data)}` : ''}`);
  }
}

type Handler = (params: Record<string, unknown>) => Promise<unknown> | unknown;
type Message = { jsonrpc?: string; id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: RpcError };

/** What the agent asked of the client, in order, for the report. */
export interface ClientCall {
  method: string;
  params: unknown;
  answer?: unknown;
  error?: string;
}

export class AcpClient {
  readonly updates: Record<string, unknown>[] = [];
  readonly calls: ClientCall[] = [];
  readonly nonJsonLines: string[] = [];
  readonly terminals = new TerminalHost();
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, { method: string; resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, Handler>();
  private nextId = 0;
  private stderrTail = '';
  private exited: { code: number | null; signal: string | null } | null = null;
  readonly exitPromise: Promise<void>;

  constructor(
    readonly launch: AgentLaunch,
    private readonly trafficLog?: string,
  ) {
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: 'pipe', detached: true });
    let buffer = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) this.onLine(line);
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-20_000);
      this.log('stderr', chunk);
    });
    this.child.stdin.on('error', () => undefined);
    this.exitPromise = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exited = { code, signal };
        for (const [, p] of this.pending) p.reject(new Error(`agent exited (code ${code}, signal ${signal}) during ${p.method}`));
        this.pending.clear();
        resolve();
      });
      this.child.on('error', (error) => {
        this.stderrTail += `\nspawn error: ${error.message}`;
        this.exited = { code: null, signal: null };
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  get exitStatus(): { code: number | null; signal: string | null } | null {
    return this.exited;
  }

  on(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  request<T = Record<string, unknown>>(method: string, params: unknown, timeoutMs = 60_000): Promise<T> {
    if (this.exited) return Promise.reject(new Error(`agent already exited; cannot send ${method}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /**
   * Ends stdin, then SIGTERM and SIGKILL to the whole process group if the agent lingers.
   * Resolves with what it took: some agents ignore stdin EOF.
   */
  async close(graceMs = 1500): Promise<'eof' | 'SIGTERM' | 'SIGKILL' | 'already-exited'> {
    this.terminals.releaseAll();
    if (this.exited) return 'already-exited';
    this.child.stdin.end();
    if (await this.waitExit(graceMs)) return 'eof';
    this.killGroup('SIGTERM');
    if (await this.waitExit(3000)) return 'SIGTERM';
    this.killGroup('SIGKILL');
    await this.waitExit(2000);
    return 'SIGKILL';
  }

  /** Kills leftovers in the group (codex's wrapper or tool subprocesses) even after the leader exited. */
  killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // group already gone
    }
  }

  private async waitExit(ms: number): Promise<boolean> {
    if (this.exited) return true;
    return Promise.race([this.exitPromise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  }

  private send(message: Message): void {
    const line = JSON.stringify(message);
    this.log('out', line);
    this.child.stdin.write(`${line}\n`);
  }

  private log(direction: string, text: string): void {
    if (this.trafficLog) appendFileSync(this.trafficLog, `${JSON.stringify({ t: Date.now(), dir: direction, text })}\n`);
  }

  private onLine(line: string): void {
    this.log('in', line);
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      this.nonJsonLines.push(line);
      return;
    }
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      void this.answer(message.id, message.method, (message.params ?? {}) as Record<string, unknown>);
    } else if (message.method !== undefined) {
      if (message.method === 'session/update') this.updates.push((message.params ?? {}) as Record<string, unknown>);
    } else if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) pending.reject(new RpcCallError(pending.method, message.error));
      else pending.resolve(message.result ?? null);
    }
  }

  private async answer(id: string | number, method: string, params: Record<string, unknown>): Promise<void> {
    const call: ClientCall = { method, params };
    this.calls.push(call);
    const handler = this.handlers.get(method);
    if (!handler) {
      call.error = 'method not found';
      this.send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
      return;
    }
    try {
      const result = await handler(params);
      call.answer = result;
      this.send({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (error) {
      call.error = (error as Error).message;
      this.send({ jsonrpc: '2.0', id, error: { code: -32603, message: (error as Error).message } });
    }
  }
}
