import type { PermissionOption, PermissionOptionKind, RequestPermissionOutcome } from '@agentclientprotocol/sdk/unstable';

/**
 * Picking among an agent's permission options. Option ids are opaque and differ per agent (Claude
 * `allow`/`reject`, codex `approved`/`abort`, gemini `proceed_once`/`cancel`, opencode `once`), so
 * automation chooses by `kind` only.
 */

export type Wanted = 'allow' | 'reject';

const PREFERENCE: Record<Wanted, readonly PermissionOptionKind[]> = {
  allow: ['allow_once', 'allow_always'],
  reject: ['reject_once', 'reject_always'],
};

/**
 * The optionId of the best option of the wanted kind: the "once" variant first (an automatic answer
 * should not make the agent remember anything), the "always" one first when `preferAlways`. Null
 * when the agent offered no option of that kind.
 */
export function chooseOption(
  options: readonly PermissionOption[] | null | undefined,
  wanted: Wanted,
  preferAlways = false,
): string | null {
  if (!Array.isArray(options)) return null;
  const kinds = preferAlways ? [...PREFERENCE[wanted]].reverse() : PREFERENCE[wanted];
  for (const kind of kinds) {
    const option = options.find((o) => o?.kind === kind && typeof o.optionId === 'string');
    if (option) return option.optionId;
  }
  return null;
}

/** A reject answer; `cancelled` when the agent offered no reject option (the protocol's other "no"). */
export function rejectOutcome(options: readonly PermissionOption[], preferAlways = false): RequestPermissionOutcome {
  const optionId = chooseOption(options, 'reject', preferAlways);
  return optionId === null ? { outcome: 'cancelled' } : { outcome: 'selected', optionId };
}

/** An allow answer, or null when there is no allow option (cancelling is not allowing). */
export function allowOutcome(options: readonly PermissionOption[], preferAlways = false): RequestPermissionOutcome | null {
  const optionId = chooseOption(options, 'allow', preferAlways);
  return optionId === null ? null : { outcome: 'selected', optionId };
}

export function optionKindOf(options: readonly PermissionOption[], optionId: string): PermissionOptionKind | undefined {
  return options.find((o) => o?.optionId === optionId)?.kind;
}
