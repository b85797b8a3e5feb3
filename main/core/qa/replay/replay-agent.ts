/**
 * Plays the agent's side of a recorded connection to a live client: waits for each request,
 * notification and answer the recording has from the client, in recorded order (matched by
 * method), and sends what the agent sent — answers with the client's live ids, requests and
 * notifications with paths rebased and ids mapped (see Rewriter), noise, stderr, even a crash.
 *
 * When the client does something else (another method, another permission answer, an error where
 * the recording has a result, a request after the recording ended) the play stops: every request
 * of the client still waiting is answered with an error that names the first mismatch, the same
 * words go to stderr, and `run()` resolves with exit code 1.
 */
import { constants } from 'node:os';
import type { JsonRpcId } from '../../../../common/trace/records';
import { idKey } from '../envelope';
import type { ReplayStep } from './replay-script';
import { Rewriter } from './rewriter';

type Json = Record<string, unknown>;

export type ReplayDelay = 'recorded' | 'none';

export interface ReplayIo {
  /** One protocol line (without its newline) to the client. */
  writeLine(line: string): void;
  /** Raw bytes to the client (noise that was not valid UTF-8). */
  writeBytes?(bytes: Buffer): void;
  /** A diagnostic or a recorded stderr line (with its newline). */
  stderr(text: string): void;
}

export interface ReplayOptions {
  delay?: ReplayDelay;
  /** Where the recording came from, for messages. */
  source?: string;
}

/** The error code of our answers once the play has diverged. */
export const REPLAY_DIVERGED = -32603;

const END = Symbol('end of input');
type Incoming = Json | typeof END | { unparsable: string };

const describe = (msg: Json): string =>
  typeof msg.method === 'string' ? `${'id' in msg ? 'request' : 'notification'} ${msg.method}` : 'id' in msg ? `an answer to id ${JSON.stringify(msg.id)}` : 'a message that is neither request nor response';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ReplayAgent {
  private readonly rewriter = new Rewriter();
  private readonly inbox: Incoming[] = [];
  private waiter: ((m: Incoming) => void) | undefined;
  private ended = false;
  /** Recorded client request id → the live id it was matched to. */
  private readonly liveIds = new Map<string, JsonRpcId>();
  /** Live ids of client requests not answered yet. */
  private readonly pending = new Map<string, JsonRpcId>();
  /** Recorded ids of the agent's requests whose answer the recording has. */
  private readonly answered: Set<string>;
  private anchor = { recorded: 0, live: Date.now() };
  private readonly delay: ReplayDelay;

  constructor(
    private readonly steps: readonly ReplayStep[],
    private readonly io: ReplayIo,
    options: ReplayOptions = {},
  ) {
    this.delay = options.delay ?? 'recorded';
    this.answered = new Set(steps.filter((s) => s.kind === 'expect-response').map((s) => idKey((s as { id: JsonRpcId }).id)));
  }

  /** One line the client wrote. */
  receive(line: string): void {
    if (line.trim() === '') return;
    let msg: Incoming;
    try {
      const value: unknown = JSON.parse(line);
      msg = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : { unparsable: line };
    } catch {
      msg = { unparsable: line };
    }
    this.push(msg);
  }

  /** The client closed its side. */
  end(): void {
    this.push(END);
  }

  /** Plays the whole script; resolves with the exit code. */
  async run(): Promise<number> {
    for (const [index, step] of this.steps.entries()) {
      switch (step.kind) {
        case 'expect-request':
        case 'expect-notification':
        case 'expect-response': {
          const outcome = await this.expect(step);
          if (outcome === 'left') return this.clientLeft(step, index);
          if (outcome !== 'ok') return this.diverge(outcome);
          break;
        }
        case 'answer': {
          await this.wait(step);
          const live = this.liveIds.get(idKey(step.clientId));
          this.pending.delete(idKey(live));
          this.write({ ...this.rewriter.apply(step.msg), id: live ?? step.clientId });
          break;
        }
        case 'send':
          await this.wait(step);
          this.write(this.rewriter.apply(step.msg));
          break;
        case 'noise':
          await this.wait(step);
          if (step.text !== undefined) this.io.writeLine(this.rewriter.apply(step.text));
          else if (this.io.writeBytes) this.io.writeBytes(Buffer.concat([Buffer.from(step.base64!, 'base64'), Buffer.from('\n')]));
          break;
        case 'stderr':
          this.io.stderr(`${step.text}\n`);
          break;
        case 'exit':
          await this.wait(step);
          this.io.stderr(`acp-workbench replay: the recorded agent exited here (${step.signal ? `signal ${step.signal}` : `exit code ${String(step.code)}`}, trace line ${step.line})\n`);
          return step.code ?? (step.signal ? 128 + (constants.signals[step.signal as keyof typeof constants.signals] ?? 0) : 1);
      }
    }
    // The recording is over: the client may only close the connection now.
    for (;;) {
      const next = await this.next();
      if (next === END) return 0;
      if (!('unparsable' in next) && this.ignorable(next)) continue;
      if (!('unparsable' in next) && typeof next.method === 'string' && 'id' in next) this.pending.set(idKey(next.id), next.id as JsonRpcId);
      return this.diverge(`the recording ended, but the client sent ${'unparsable' in next ? 'a line that is not JSON' : describe(next)}`);
    }
  }

  private async expect(step: Extract<ReplayStep, { kind: `expect-${string}` }>): Promise<'ok' | 'left' | string> {
    let msg: Incoming;
    do msg = await this.next();
    while (msg !== END && !('unparsable' in msg) && this.ignorable(msg));
    if (msg === END) return 'left';
    if ('unparsable' in msg) return this.mismatch(`the client sent a line that is not JSON: ${JSON.stringify(String(msg.unparsable).slice(0, 80))}`, step);
    this.anchor = { recorded: step.t, live: Date.now() };
    if (step.kind === 'expect-response') {
      if (typeof msg.method === 'string' || idKey(msg.id) !== idKey(step.id)) return this.mismatch(`expected the client's answer to ${step.method}, got ${describe(msg)}`, step, msg);
      return this.compareAnswer(step, msg);
    }
    const isRequest = 'id' in msg;
    if (msg.method !== step.method || isRequest !== (step.kind === 'expect-request')) {
      const wanted = `${step.kind === 'expect-request' ? 'request' : 'notification'} ${step.method}`;
      return this.mismatch(`expected the client's ${wanted}, got ${describe(msg)}`, step, msg);
    }
    if (step.kind === 'expect-request') {
      this.liveIds.set(idKey(step.id), msg.id as JsonRpcId);
      this.pending.set(idKey(msg.id), msg.id as JsonRpcId);
      this.learn(step.method, step.params, msg.params as Json | undefined);
    }
    return 'ok';
  }

  /** The live session's cwd and ids, from the client's own request. */
  private learn(method: string, recorded: Json | undefined, live: Json | undefined): void {
    if (!recorded || !live) return;
    if (['session/new', 'session/load', 'session/resume', 'session/fork'].includes(method)) {
      if (typeof recorded.cwd === 'string' && typeof live.cwd === 'string') this.rewriter.rebase(recorded.cwd, live.cwd);
      const [a, b] = [recorded.additionalDirectories, live.additionalDirectories];
      if (Array.isArray(a) && Array.isArray(b)) a.forEach((dir, i) => typeof dir === 'string' && typeof b[i] === 'string' && this.rewriter.rebase(dir, b[i] as string));
    }
    if (['session/load', 'session/resume', 'session/fork'].includes(method) && typeof recorded.sessionId === 'string' && typeof live.sessionId === 'string') {
      this.rewriter.mapValue(recorded.sessionId, live.sessionId);
    }
  }

  private compareAnswer(step: Extract<ReplayStep, { kind: 'expect-response' }>, msg: Json): 'ok' | string {
    const recordedError = Object.hasOwn(step.msg, 'error');
    const liveError = Object.hasOwn(msg, 'error');
    if (recordedError !== liveError) {
      const said = (m: Json) => (Object.hasOwn(m, 'error') ? `an error (${JSON.stringify((m.error as Json | null)?.message ?? m.error)})` : 'a result');
      return this.mismatch(`the client answered ${step.method} with ${said(msg)}; the recording has ${said(step.msg)}`, step, msg);
    }
    const recorded = (step.msg.result ?? {}) as Json;
    const live = (msg.result ?? {}) as Json;
    if (step.method === 'session/request_permission') {
      const want = JSON.stringify(outcomeOf(recorded));
      const got = JSON.stringify(outcomeOf(live));
      if (want !== got) return this.mismatch(`the client answered the permission request with ${got}; the recording has ${want}`, step, msg);
    }
    if (step.method === 'terminal/create' && typeof recorded.terminalId === 'string' && typeof live.terminalId === 'string') {
      this.rewriter.mapValue(recorded.terminalId, live.terminalId);
    }
    return 'ok';
  }

  /** Names the first mismatch; the client's message, when it is a request, is answered with the error too. */
  private mismatch(what: string, step: ReplayStep, msg?: Json): string {
    if (msg && typeof msg.method === 'string' && 'id' in msg) this.pending.set(idKey(msg.id), msg.id as JsonRpcId);
    return `${what} (trace line ${step.line})`;
  }

  /** Answers the client's late answers to requests the recording never saw answered: nothing to match. */
  private ignorable(msg: Json): boolean {
    return typeof msg.method !== 'string' && 'id' in msg && !this.answered.has(idKey(msg.id));
  }

  private clientLeft(step: ReplayStep, index: number): number {
    this.io.stderr(`acp-workbench replay: the client closed the connection at trace line ${step.line} (step ${index + 1} of ${this.steps.length}); it was waiting for nothing more.\n`);
    return 0;
  }

  private diverge(reason: string): number {
    const message = `acp-workbench replay: the client diverged from the recording: ${reason}`;
    for (const id of this.pending.values()) this.write({ jsonrpc: '2.0', id, error: { code: REPLAY_DIVERGED, message } });
    this.pending.clear();
    this.io.stderr(`${message}\n`);
    return 1;
  }

  private async wait(step: ReplayStep): Promise<void> {
    if (this.delay === 'none') return;
    const due = step.t - this.anchor.recorded - (Date.now() - this.anchor.live);
    if (due > 1) await sleep(due);
  }

  private write(msg: Json): void {
    this.io.writeLine(JSON.stringify(msg));
  }

  private push(msg: Incoming): void {
    if (this.ended) return;
    if (msg === END) this.ended = true;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(msg);
    } else this.inbox.push(msg);
  }

  private next(): Promise<Incoming> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

function outcomeOf(result: Json): unknown {
  const outcome = (result.outcome ?? {}) as Json;
  return outcome.outcome === 'selected' ? { outcome: 'selected', optionId: outcome.optionId } : { outcome: outcome.outcome };
}
