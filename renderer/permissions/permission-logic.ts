/**
 * Pure rules of the permission card (no DOM, no API): which option answers "allow"/"reject", which
 * request is the first one waiting, what diff a request proposes, how a decision reads.
 */
import type { JsonValue } from '../../common/trace/json';
import type { PermissionOption, PermissionOptionKind, ToolCallContent } from '../../common/transcript/acp-types';
import type { PermissionRecord, ToolCallEntry, Transcript } from '../../common/transcript/model';

export type AnswerKind = 'allow' | 'reject';

const PREFERENCE: Record<AnswerKind, PermissionOptionKind[]> = {
  // "Once" first: a keyboard shortcut should never grant (or refuse) more than this one call.
  allow: ['allow_once', 'allow_always'],
  reject: ['reject_once', 'reject_always'],
};

/** The option a shortcut answers with: the `_once` kind before the `_always` one, first of each in the agent's order. */
export function bestOption(options: readonly PermissionOption[], kind: AnswerKind): PermissionOption | undefined {
  for (const wanted of PREFERENCE[kind]) {
    const found = options.find((o) => o.kind === wanted);
    if (found) return found;
  }
  return undefined;
}

export interface PendingPermission {
  entry: ToolCallEntry;
  permission: PermissionRecord;
}

/** The earliest permission request of the transcript still waiting for an answer. */
export function firstPendingPermission(transcript: Pick<Transcript, 'ids' | 'entries'>): PendingPermission | undefined {
  for (const id of transcript.ids) {
    const entry = transcript.entries[id];
    if (!entry || entry.kind !== 'tool_call') continue;
    const permission = entry.permissions.find((p) => p.status === 'pending');
    if (permission) return { entry, permission };
  }
  return undefined;
}

/** How an option's button looks: allow = primary, reject = danger; `_always` kinds are outlined. */
export function optionLook(kind: string): { tone: 'allow' | 'reject' | 'neutral'; outlined: boolean } {
  const tone = kind.startsWith('allow') ? 'allow' : kind.startsWith('reject') ? 'reject' : 'neutral';
  return { tone, outlined: kind.endsWith('_always') };
}

const KIND_WORDS: Record<string, string> = {
  allow_once: 'Allowed once',
  allow_always: 'Allowed always',
  reject_once: 'Rejected once',
  reject_always: 'Rejected always',
};

/**
 * Who answered, in words. The core's deciders: 'user' (or 'user:<where>'), 'policy' with a rule,
 * 'remembered', 'qa', 'sensitive-path', 'session-cancel' (the turn was cancelled), 'cancel-request'
 * (the agent withdrew it).
 */
export function deciderText(decidedBy: string | undefined, rule?: string): string | undefined {
  if (decidedBy === undefined) return undefined;
  const kind = decidedBy.split(':')[0];
  // The rule repeats the decider as a prefix ('policy' + 'policy:reads'): show only what it adds.
  const detail = rule?.startsWith(`${kind}:`) ? rule.slice(kind!.length + 1) : rule === kind ? undefined : rule;
  const withRule = (text: string) => (detail ? `${text} (${detail})` : text);
  switch (kind) {
    case 'user':
      return 'by you';
    case 'policy':
      return withRule('by policy');
    case 'remembered':
      return withRule('by a remembered “always” answer');
    case 'cancel':
    case 'session-cancel':
      return 'because the turn was cancelled';
    case 'agent':
    case 'cancel-request':
      return 'by the agent (it withdrew the request)';
    case 'qa':
      return withRule('by QA mode');
    case 'sensitive-path':
      return withRule('by the sensitive-path rule');
    default:
      return `by ${decidedBy}`;
  }
}

/** The one-line summary of a resolved request ("Allowed once (Allow) — by you"). */
export function decisionSummary(permission: PermissionRecord): string {
  const by = deciderText(permission.decidedBy, permission.rule);
  switch (permission.status) {
    case 'pending':
      return 'Waiting for an answer';
    case 'selected': {
      const option = permission.options.find((o) => o.optionId === permission.optionId);
      const kind = permission.optionKind ?? option?.kind;
      const name = permission.optionName ?? option?.name ?? permission.optionId ?? '?';
      const head = kind && KIND_WORDS[kind] ? `${KIND_WORDS[kind]} (“${name}”)` : `Answered “${name}”`;
      return by ? `${head} — ${by}` : head;
    }
    case 'cancelled':
      return by ? `Cancelled — ${by}` : 'Cancelled';
    case 'failed':
      return `Our answer failed: ${permission.error ?? 'unknown error'}`;
    default:
      return String(permission.status);
  }
}

/** What a request proposes to write, as far as its tool call says. */
export type ProposedDiff =
  /** Both sides known (oldText null: a new file). */
  | { kind: 'full'; path: string; oldText: string | null; newText: string }
  /** Only the new text: the old one is the file on disk. */
  | { kind: 'against-disk'; path: string; newText: string }
  /** A search/replace on the file (Claude's Edit tool): applied to the file on disk. */
  | { kind: 'fragment'; path: string; oldFragment: string; newFragment: string; replaceAll: boolean };

/** The diffs of a tool call and of its permission request's own content, then what an edit's raw input says. */
export function proposedDiffs(entry: Pick<ToolCallEntry, 'content' | 'toolKind' | 'rawInput'>, permission?: Pick<PermissionRecord, 'context'>): ProposedDiff[] {
  const out: ProposedDiff[] = [];
  const seen = new Set<string>();
  const add = (items: readonly ToolCallContent[] | undefined) => {
    for (const item of items ?? []) {
      if (item.type !== 'diff' || typeof item.newText !== 'string') continue;
      const key = `${item.path}\0${item.oldText ?? ''}\0${item.newText}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // An absent oldText is the protocol's "new file", but agents also omit it when they only
      // know the new text: the file on disk says which (null when it does not exist).
      if (item.oldText === undefined) out.push({ kind: 'against-disk', path: item.path, newText: item.newText });
      else out.push({ kind: 'full', path: item.path, oldText: item.oldText, newText: item.newText });
    }
  };
  add(entry.content);
  add(permission?.context);
  if (out.length === 0 && entry.toolKind === 'edit') {
    const fromInput = diffFromRawInput(entry.rawInput);
    if (fromInput) out.push(fromInput);
  }
  return out;
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'abs_path', 'absolute_path'];
const NEW_TEXT_KEYS = ['newText', 'new_text', 'content', 'new_content', 'newContent'];

/** Common shapes of an edit tool's input: {path, newText|content} or {file_path, old_string, new_string}. */
export function diffFromRawInput(raw: JsonValue | undefined): ProposedDiff | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const path = PATH_KEYS.map((k) => raw[k]).find((v): v is string => typeof v === 'string' && v !== '');
  if (!path) return undefined;
  const oldFragment = raw.old_string ?? raw.oldString;
  const newFragment = raw.new_string ?? raw.newString;
  if (typeof oldFragment === 'string' && typeof newFragment === 'string') {
    return { kind: 'fragment', path, oldFragment, newFragment, replaceAll: raw.replace_all === true || raw.replaceAll === true };
  }
  const newText = NEW_TEXT_KEYS.map((k) => raw[k]).find((v): v is string => typeof v === 'string');
  return newText === undefined ? undefined : { kind: 'against-disk', path, newText };
}

/** Whether a proposed diff needs the file on disk to be shown. */
export function needsDiskText(diff: ProposedDiff): boolean {
  return diff.kind !== 'full';
}

/** Old and new text of a proposed diff, given the file on disk (null: no such file). */
export function resolveProposedDiff(diff: ProposedDiff, diskText: string | null): { oldText: string | null; newText: string; note?: string } {
  switch (diff.kind) {
    case 'full':
      return { oldText: diff.oldText, newText: diff.newText };
    case 'against-disk':
      return { oldText: diskText, newText: diff.newText };
    case 'fragment': {
      if (diskText !== null && diff.oldFragment !== '' && diskText.includes(diff.oldFragment)) {
        const newText = diff.replaceAll ? diskText.split(diff.oldFragment).join(diff.newFragment) : diskText.replace(diff.oldFragment, () => diff.newFragment);
        return { oldText: diskText, newText };
      }
      return { oldText: diff.oldFragment, newText: diff.newFragment, note: 'The text to replace is not in the file on disk: showing the replacement alone.' };
    }
  }
}
