import { randomUUID } from 'node:crypto';
import type { RequestPermissionOutcome, RequestPermissionRequest } from '@agentclientprotocol/sdk/unstable';

/**
 * Permission requests waiting for a person. Several UIs (the app window, a web tab, the CLI) may
 * show the same request and answer it: the first answer wins and later ones are told so.
 */

export interface PendingPermission {
  key: string;
  sessionId: string;
  params: RequestPermissionRequest;
  askedAt: number;
  /** Whatever the broker wants the UI to show with it (why it must be asked, sensitive paths). */
  context?: Record<string, unknown> | undefined;
}

export interface PermissionAnswer {
  outcome: RequestPermissionOutcome;
  /** 'user', 'user:web', 'session-cancel', 'cancel-request', ... */
  decidedBy: string;
}

export type ResolveResult =
  | { status: 'resolved' }
  | { status: 'already_resolved'; answer: PermissionAnswer }
  | { status: 'invalid_option'; optionIds: string[] }
  | { status: 'unknown' };

export interface Disposable {
  dispose(): void;
}

interface Entry {
  pending: PendingPermission;
  settle: (answer: PermissionAnswer) => void;
  cleanup: () => void;
}

/** How many answered keys are kept to tell a late UI "already resolved" rather than "unknown". */
const RECENT_ANSWERS = 1000;

export class PermissionQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly recent = new Map<string, PermissionAnswer>();
  private readonly askedListeners = new Set<(p: PendingPermission) => void>();
  private readonly resolvedListeners = new Set<(p: PendingPermission, a: PermissionAnswer) => void>();

  /**
   * Queue a request for a person. `signal` is the agent withdrawing it (`$/cancel_request`): it is
   * then answered `cancelled`, as the protocol requires.
   */
  ask(
    sessionId: string,
    params: RequestPermissionRequest,
    opts: { key?: string; signal?: AbortSignal; context?: Record<string, unknown> } = {},
  ): { key: string; answer: Promise<PermissionAnswer> } {
    const key = opts.key ?? randomUUID();
    if (this.entries.has(key)) throw new Error(`permission request ${key} is already pending`);
    const pending: PendingPermission = { key, sessionId, params, askedAt: Date.now(), context: opts.context };
    let settle!: (a: PermissionAnswer) => void;
    const answer = new Promise<PermissionAnswer>((r) => (settle = r));
    const onAbort = () => this.resolve(key, { outcome: 'cancelled' }, 'cancel-request');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    this.entries.set(key, { pending, settle, cleanup: () => opts.signal?.removeEventListener('abort', onAbort) });
    for (const l of this.askedListeners) safe(() => l(pending));
    if (opts.signal?.aborted) onAbort();
    return { key, answer };
  }

  /** First answer wins; an optionId the agent did not offer is refused and the request stays open. */
  resolve(key: string, outcome: RequestPermissionOutcome, decidedBy: string): ResolveResult {
    const entry = this.entries.get(key);
    if (!entry) {
      const answer = this.recent.get(key);
      return answer ? { status: 'already_resolved', answer } : { status: 'unknown' };
    }
    if (outcome.outcome === 'selected') {
      const optionIds = entry.pending.params.options.map((o) => o.optionId);
      if (!optionIds.includes(outcome.optionId)) return { status: 'invalid_option', optionIds };
    } else if (outcome.outcome !== 'cancelled') {
      return { status: 'invalid_option', optionIds: entry.pending.params.options.map((o) => o.optionId) };
    }
    const answer: PermissionAnswer = { outcome, decidedBy };
    this.entries.delete(key);
    entry.cleanup();
    this.recent.set(key, answer);
    if (this.recent.size > RECENT_ANSWERS) this.recent.delete(this.recent.keys().next().value!);
    entry.settle(answer);
    for (const l of this.resolvedListeners) safe(() => l(entry.pending, answer));
    return { status: 'resolved' };
  }

  /** `session/cancel` sent: every pending request of that session is answered `cancelled` at once. */
  cancelSession(sessionId: string, decidedBy = 'session-cancel'): number {
    let n = 0;
    for (const entry of [...this.entries.values()]) {
      if (entry.pending.sessionId !== sessionId) continue;
      if (this.resolve(entry.pending.key, { outcome: 'cancelled' }, decidedBy).status === 'resolved') n++;
    }
    return n;
  }

  pending(sessionId?: string): PendingPermission[] {
    return [...this.entries.values()].map((e) => e.pending).filter((p) => sessionId === undefined || p.sessionId === sessionId);
  }

  get(key: string): PendingPermission | undefined {
    return this.entries.get(key)?.pending;
  }

  onAsked(listener: (p: PendingPermission) => void): Disposable {
    this.askedListeners.add(listener);
    return { dispose: () => void this.askedListeners.delete(listener) };
  }

  onResolved(listener: (p: PendingPermission, a: PermissionAnswer) => void): Disposable {
    this.resolvedListeners.add(listener);
    return { dispose: () => void this.resolvedListeners.delete(listener) };
  }
}

function safe(fn: () => void): void {
  try {
    fn();
  } catch {
    // One broken UI must not keep the answer from the agent.
  }
}
