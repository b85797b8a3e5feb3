import path from 'node:path';
import type { PermissionOption, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk/unstable';
import { isSensitivePath } from '../acp/sensitive-paths';
import { decided, PASS, type ApprovePolicy, type Decider, type PermissionInput } from './permission-chain';
import { allowOutcome, optionKindOf, rejectOutcome } from './permission-options';

/**
 * The standard deciders of the permission chain, in this order:
 *  1. QA rules (manual mode, fault injection): a pluggable slot, first so QA can override anything;
 *  2. sensitive-path guard: secrets need a person's yes whatever the policy (rejected when nobody
 *     can answer);
 *  3. the run's or session's approval policy;
 *  4. "always" answers a person gave earlier to this agent for the same kind of call;
 *  5. otherwise: ask the person (the chain's default).
 */

export const APPROVE_POLICIES: readonly ApprovePolicy[] = ['ask', 'all', 'reads', 'none'];

export function parseApprovePolicy(value: string): ApprovePolicy {
  if ((APPROVE_POLICIES as readonly string[]).includes(value)) return value as ApprovePolicy;
  throw new Error(`--approve must be one of ${APPROVE_POLICIES.join(', ')} (got ${JSON.stringify(value)})`);
}

/** Kinds that only look: the `reads` policy allows these and rejects everything else. */
export const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>(['read', 'search', 'fetch', 'think']);

// ---- 1. QA slot -------------------------------------------------------------------------------

/** QA rules are read at every request, so manual mode and faults can be switched while running. */
export function qaRulesDecider(rules: () => readonly Decider[]): Decider {
  return {
    name: 'qa',
    async decide(input) {
      for (const rule of rules()) {
        const r = await rule.decide(input);
        if (r.type !== 'pass') return r;
      }
      return PASS;
    },
  };
}

// ---- 2. sensitive paths -----------------------------------------------------------------------

/** rawInput keys that name files across agents (Claude `file_path`, gemini `path`, ...). */
const PATH_KEYS = /^(path|paths|file|files|file_?path|file_?paths|filename|notebook_?path|source|destination|target|old_?path|new_?path|from|to)$/i;
const COMMAND_KEYS = /^(command|cmd)$/i;

function collectRawPaths(value: unknown, out: string[], depth: number): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (PATH_KEYS.test(key)) {
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === 'string'));
    } else if (COMMAND_KEYS.test(key)) {
      // A heuristic on purpose: `cat .env` touches .env; a false hit only means a person is asked.
      const words = typeof v === 'string' ? v.split(/[\s;|&<>()'"`=]+/) : Array.isArray(v) ? v : [];
      out.push(...words.filter((w): w is string => typeof w === 'string' && w !== ''));
    } else if (key === 'changes' && v && typeof v === 'object' && !Array.isArray(v)) {
      out.push(...Object.keys(v)); // codex apply_patch: { changes: { "/abs/path": {...} } }
    } else {
      collectRawPaths(v, out, depth + 1);
    }
  }
}

/** Every path a tool call mentions: locations, diff targets, and file-ish rawInput fields. */
export function pathsTouchedBy(toolCall: ToolCallUpdate, cwd?: string): string[] {
  const raw: string[] = [];
  for (const loc of toolCall.locations ?? []) if (typeof loc?.path === 'string') raw.push(loc.path);
  for (const c of toolCall.content ?? []) if (c?.type === 'diff' && typeof c.path === 'string') raw.push(c.path);
  collectRawPaths(toolCall.rawInput, raw, 0);
  const resolved = raw.map((p) => (cwd && !path.isAbsolute(p) && !p.startsWith('~') ? path.resolve(cwd, p) : p));
  return [...new Set(resolved)];
}

export function sensitivePathsTouched(toolCall: ToolCallUpdate, cwd?: string): string[] {
  return pathsTouchedBy(toolCall, cwd).filter(isSensitivePath);
}

export function sensitivePathDecider(): Decider {
  return {
    name: 'sensitive-path',
    decide(input) {
      const hits = sensitivePathsTouched(input.toolCall, input.cwd);
      if (hits.length === 0) return PASS;
      const reason = `touches sensitive files: ${hits.join(', ')}`;
      if (!input.interactive) return decided(rejectOutcome(input.options), 'sensitive-path', reason);
      return { type: 'ask', by: 'sensitive-path', reason, sensitivePaths: hits };
    },
  };
}

// ---- 3. approval policy -----------------------------------------------------------------------

export function approvePolicyDecider(): Decider {
  return {
    name: 'policy',
    decide({ policy, interactive, options, toolCall }) {
      const by = `policy:${policy}`;
      switch (policy) {
        case undefined:
          return PASS;
        case 'ask':
          // Unattended, "ask" has nobody to ask: it behaves as "none".
          return interactive ? PASS : decided(rejectOutcome(options), by, 'non-interactive');
        case 'none':
          return decided(rejectOutcome(options), by);
        case 'reads':
          if (!READ_ONLY_KINDS.has(toolCall.kind ?? 'other')) return decided(rejectOutcome(options), by);
          return allowOrPass(options, by);
        case 'all':
          return allowOrPass(options, by);
      }
    },
  };
}

function allowOrPass(options: PermissionOption[], by: string) {
  const outcome = allowOutcome(options);
  // No allow option on offer: this is not ours to settle; later deciders (or a person) will.
  return outcome ? decided(outcome, by) : PASS;
}

// ---- 4. remembered "always" answers -------------------------------------------------------------

/**
 * What an "always" answer covers. Key = agent + tool kind + subject, where subject is:
 *  - for `execute`: the exact command line, whitespace-normalised (`npm test` does not cover
 *    `npm test -- --watch`, nor `rm -rf build` cover `rm -rf ~`);
 *  - otherwise: the tool's `name` when the agent sends one, else the title with its variable parts
 *    (quoted/backticked text, paths, file names, numbers) replaced by `*`, so "Edit src/a.ts" and
 *    "Edit lib/b.ts" share the pattern "Edit *".
 * No key (nothing remembered) when there is no subject at all: a bare id is too broad to trust.
 */
export function alwaysKey(agentId: string, toolCall: ToolCallUpdate): string | null {
  const kind = toolCall.kind ?? 'other';
  const subject = kind === 'execute' ? commandSubject(toolCall) : toolCall.name || titlePattern(toolCall.title);
  if (!subject) return null;
  return JSON.stringify([agentId, kind, subject]);
}

function commandSubject(toolCall: ToolCallUpdate): string | null {
  const raw = toolCall.rawInput as { command?: unknown; cmd?: unknown } | null | undefined;
  const cmd = raw?.command ?? raw?.cmd;
  const line = typeof cmd === 'string' ? cmd : Array.isArray(cmd) ? cmd.join(' ') : toolCall.title?.replace(/`/g, '');
  const normal = line?.trim().replace(/\s+/g, ' ');
  return normal ? `$ ${normal}` : null;
}

export function titlePattern(title: string | null | undefined): string | null {
  if (!title) return null;
  const pattern = title
    .replace(/`[^`]*`|"[^"]*"|'[^']*'/g, '*')
    .split(/\s+/)
    .map((w) => (/[\\/]|\.\w+$|^\d+$/.test(w) ? '*' : w))
    .join(' ')
    .trim();
  return pattern || null;
}

/** "Always" answers per agent. Persisted by whoever owns settings, via entries()/constructor. */
export class AlwaysMemory {
  private readonly answers = new Map<string, 'allow' | 'reject'>();

  constructor(entries: Iterable<[string, 'allow' | 'reject']> = []) {
    for (const [k, v] of entries) this.answers.set(k, v);
  }

  /** Record a person's answer if it was an "always" option; returns whether anything was remembered. */
  recordAnswer(agentId: string, toolCall: ToolCallUpdate, options: readonly PermissionOption[], optionId: string): boolean {
    const kind = optionKindOf(options, optionId);
    if (kind !== 'allow_always' && kind !== 'reject_always') return false;
    const key = alwaysKey(agentId, toolCall);
    if (!key) return false;
    this.answers.set(key, kind === 'allow_always' ? 'allow' : 'reject');
    return true;
  }

  lookup(agentId: string, toolCall: ToolCallUpdate): 'allow' | 'reject' | undefined {
    const key = alwaysKey(agentId, toolCall);
    return key ? this.answers.get(key) : undefined;
  }

  forget(key: string): void {
    this.answers.delete(key);
  }

  clear(agentId?: string): void {
    for (const key of [...this.answers.keys()]) {
      if (agentId === undefined || (JSON.parse(key) as string[])[0] === agentId) this.answers.delete(key);
    }
  }

  entries(): Array<[string, 'allow' | 'reject']> {
    return [...this.answers.entries()];
  }
}

export function rememberedAlwaysDecider(memory: AlwaysMemory): Decider {
  return {
    name: 'remembered',
    decide({ agentId, toolCall, options }) {
      const answer = memory.lookup(agentId, toolCall);
      if (answer === 'reject') return decided(rejectOutcome(options, true), 'remembered');
      if (answer === 'allow') {
        // Choose the agent's own "always" option so agents that remember stop asking too.
        const outcome = allowOutcome(options, true);
        return outcome ? decided(outcome, 'remembered') : PASS;
      }
      return PASS;
    },
  };
}

// ---- the chain ----------------------------------------------------------------------------------

export function standardPermissionChain(opts: { qaRules?: () => readonly Decider[]; memory: AlwaysMemory }): Decider[] {
  return [
    qaRulesDecider(opts.qaRules ?? (() => [])),
    sensitivePathDecider(),
    approvePolicyDecider(),
    rememberedAlwaysDecider(opts.memory),
  ];
}
