/**
 * SDK message stream: the `Stream` the ACP SDK's client app is connected through, built on our
 * line tap instead of the SDK's `ndJsonStream`.
 *
 * Why it exists: the SDK takes `{ readable, writable }` of already-parsed JSON-RPC objects. Feeding
 * it from the line tap means each incoming line is parsed once, noise never reaches the SDK (which
 * would answer it with `-32700` written into the agent), and every message in both directions is
 * seen by an observer for the trace — in wire order, before the SDK acts on it.
 *
 * - Incoming: every tap event goes to the observer; messages the tap marks `forward` are enqueued,
 *   in arrival order, on the readable side.
 * - Outgoing: each message is serialized once with JSON.stringify; the observer gets
 *   `(message, text)`, then `text + "\n"` goes through the agent process's write queue. The SDK
 *   awaits each write, so a slow agent applies backpressure to it. A write the agent can no longer
 *   take fails, which makes the SDK close the connection instead of waiting forever.
 * - Closing: when stdout ends (or the process exits and stdout is given up on) the tap is flushed and
 *   the readable closes, so the SDK rejects its pending requests and resolves `closed`.
 */
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';
import { LineTap, type JsonObject, type MessageInfo, type NoiseLine, type OversizeLine } from './line-tap';

/** What the stream needs from an agent process (`AgentProcess` provides it). */
export interface AgentPipes {
  onStdout(listener: (chunk: Buffer) => void): { dispose(): void };
  onStdoutEnd(listener: () => void): { dispose(): void };
  write(text: string): Promise<boolean>;
}

/** Sees everything on the wire, e.g. to write the trace. Called synchronously, in wire order. */
export interface MessageStreamObserver {
  /** `line`: the bytes `message` was parsed from (see LineTapOutput.message). */
  incoming?(message: JsonObject, rawLength: number, info: MessageInfo, line: Buffer): void;
  outgoing?(message: AnyMessage, text: string): void;
  noise?(line: NoiseLine, rawLength: number): void;
  oversize?(line: OversizeLine): void;
  /** stdout ended; no more incoming messages. */
  ended?(): void;
}

export interface MessageStreamOptions {
  observer?: MessageStreamObserver;
  /**
   * Messages the core handles itself and the SDK never sees. `session/update` notifications take
   * this path: they need no answer, they are the hot path (the SDK's schema validation is most of
   * its cost per message), and the reducer tolerates malformed ones while the conformance report
   * validates them against the schema separately.
   */
  consume?(message: JsonObject, info: MessageInfo): boolean;
  maxLineBytes?: number;
}

export interface AgentMessageStream {
  /** Give this to `client().connect(...)`. */
  readonly stream: Stream;
  /** The tap behind the readable side (e.g. for `bufferedBytes`). */
  readonly tap: LineTap;
  /** Stops listening to the agent's stdout and closes the readable side. Idempotent. */
  dispose(): void;
}

/** Thrown into the SDK when a message cannot be written; it then closes the connection. */
export class AgentInputClosedError extends Error {
  constructor() {
    super('Cannot send to the agent: its input is closed (the agent exited or closed stdin).');
    this.name = 'AgentInputClosedError';
  }
}

export function createMessageStream(pipes: AgentPipes, options: MessageStreamOptions = {}): AgentMessageStream {
  const observer = options.observer ?? {};
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let readableOpen = true;

  const closeReadable = (): void => {
    if (!readableOpen) return;
    readableOpen = false;
    try {
      controller?.close();
    } catch {
      // Already cancelled by the SDK.
    }
  };

  const tap = new LineTap(
    {
      message(message, rawLength, info, line) {
        observer.incoming?.(message, rawLength, info, line);
        // Not forwarded: see line-tap.ts. After the SDK cancelled, the trace still gets everything.
        if (options.consume?.(message, info)) return;
        if (info.forward && readableOpen) controller?.enqueue(message as AnyMessage);
      },
      noise: (line, rawLength) => observer.noise?.(line, rawLength),
      oversize: (line) => observer.oversize?.(line),
    },
    options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes },
  );

  const readable = new ReadableStream<AnyMessage>({
    start(c) {
      controller = c;
    },
    cancel() {
      // The SDK closed the connection; keep tapping for the trace, stop enqueueing.
      readableOpen = false;
    },
  });

  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      const text = JSON.stringify(message);
      observer.outgoing?.(message, text);
      if (!(await pipes.write(text + '\n'))) throw new AgentInputClosedError();
    },
  });

  const subscriptions = [
    pipes.onStdout((chunk) => tap.push(chunk)),
    pipes.onStdoutEnd(() => {
      tap.end();
      observer.ended?.();
      closeReadable();
    }),
  ];

  let disposed = false;
  return {
    stream: { readable, writable },
    tap,
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const subscription of subscriptions) subscription.dispose();
      closeReadable();
    },
  };
}
