/**
 * The ACP SDK (`@agentclientprotocol/sdk/unstable`), loaded after the core instead of with it
 * (start-up, issue #11). Evaluating the SDK builds its zod schemas — hundreds of them — which was
 * most of the core's load: the web host's API socket waited for it before the UI could show
 * anything, and `run` paid it before spawning its agent. Now the core answers the UI without it; a
 * connection loads it right after spawning its agent, so the agent's own start overlaps the
 * evaluation (agent-connection.ts), and the hosts that stay up load it a moment after their core
 * (`loadSdkLater`), so their first agent start does not pay it.
 *
 * Every module of the core imports the SDK's *types* only (`import type`); its values are reached
 * through `sdk()`, which only code running on a live connection calls (the connection loaded it
 * first). A static value import of the SDK anywhere in the core's graph would load it with the
 * core again: sdk-runtime.test.ts checks the bundle.
 */
import type * as AcpSdk from '@agentclientprotocol/sdk/unstable';
import type { RequestError } from '@agentclientprotocol/sdk/unstable';

export type Sdk = typeof AcpSdk;

let loaded: Sdk | undefined;
let loading: Promise<Sdk> | undefined;

/** Loads (once) and evaluates the SDK. */
export function loadSdk(): Promise<Sdk> {
  loading ??= import('@agentclientprotocol/sdk/unstable').then((module) => (loaded = module));
  return loading;
}

/**
 * How long after its core starts a host that stays up (the web host, the app) loads the SDK when
 * no agent started before: the window has had its first answers by then, and the web host's code
 * cache, saved 3 s after launch (main/cli/code-cache.ts), then holds the SDK compiled.
 */
export const SDK_PRELOAD_DELAY_MS = 1000;

/**
 * Loads the SDK `delayMs` from now, unless a connection did it first: the evaluation (≈ 70–100 ms
 * that hold the event loop, more when its code is not in a code cache) leaves the first agent
 * start for a moment the window is usually idle. Never throws (a failure shows at the first
 * connection).
 */
export function loadSdkLater(delayMs = SDK_PRELOAD_DELAY_MS): void {
  const timer = setTimeout(() => void loadSdk().catch(() => undefined), delayMs);
  timer.unref?.();
}

/**
 * The loaded SDK, for code that runs once a connection exists (its handlers, its errors). Throws
 * when nothing loaded it yet: a caller that can run before any connection must `await loadSdk()`.
 */
export function sdk(): Sdk {
  if (!loaded) throw new Error('The ACP SDK is not loaded yet: only code on a started agent connection may use it (await loadSdk() first)');
  return loaded;
}

/**
 * `new RequestError(code, message, data)` of the loaded SDK: a handler that throws (or rejects
 * with) the SDK's own class is answered with that JSON-RPC error, any other error with -32603.
 */
export function requestError(code: number, message: string, data?: unknown): RequestError {
  return new (sdk().RequestError)(code, message, data);
}
