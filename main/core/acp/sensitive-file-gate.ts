/**
 * Sensitive files inside the session's folders (`.env`, private keys: sensitive-paths.ts) are not
 * read or written for the agent on its say-so: `fs/read_text_file` and `fs/write_text_file` of one
 * wait for a person's explicit yes, whatever the approval policy says. This module is the contract
 * between the fs handler, which finds the sensitive path, and the session, which asks the person
 * (through the permission queue) or refuses where nobody can answer.
 */
import { isSensitivePath } from './sensitive-paths';

/** The fs methods of the protocol (fs-access.ts serves them; defined here so the gate needs nothing of it). */
export type FsMethod = 'fs/read_text_file' | 'fs/write_text_file';

export interface SensitiveFileAccess {
  method: FsMethod;
  /** The agent's session id. */
  sessionId: string;
  /** As the agent sent it. */
  path: string;
  /** After resolving the symlinks of its folders. */
  realPath: string;
  /** What the agent wants to write (write only). */
  newText?: string;
}

/** Why the access was refused: a person said no, the request was cancelled, or nobody could answer. */
export type SensitiveFileRefusalKind = 'rejected' | 'cancelled' | 'no-person';

export type SensitiveFileVerdict =
  | { allowed: true; decidedBy: string }
  | { allowed: false; decidedBy: string; refusal: SensitiveFileRefusalKind };

/** Asks whoever may answer for this session; never throws for a "no" (that is a verdict). */
export type SensitiveFileApprover = (access: SensitiveFileAccess) => Promise<SensitiveFileVerdict>;

/** How a run without a person allows these files (documented in docs/cli.md). */
export const ALLOW_SENSITIVE_FLAG = '--allow-sensitive';

export function isSensitiveAccess(requested: string, real: string): boolean {
  return isSensitivePath(requested) || isSensitivePath(real);
}

export function verbOf(method: FsMethod): 'read' | 'write' {
  return method === 'fs/read_text_file' ? 'read' : 'write';
}

/** "the agent wants to read <path>, a file that usually holds secrets": what the person is asked. */
export function sensitiveFileQuestion(access: Pick<SensitiveFileAccess, 'method' | 'path'>): string {
  return `The agent wants to ${verbOf(access.method)} ${access.path}, a file that usually holds secrets (credentials, keys). Allow only if you expect it.`;
}

/** The refusal, in words for the agent's error answer and the trace. */
export function sensitiveFileRefusalMessage(access: Pick<SensitiveFileAccess, 'method' | 'path'>, refusal: SensitiveFileRefusalKind, decidedBy = 'user'): string {
  const verb = verbOf(access.method);
  const what = `${access.path} is a sensitive file (it usually holds secrets), so ${verb === 'read' ? 'reading' : 'writing'} it needs a person's explicit approval`;
  switch (refusal) {
    case 'rejected':
      // `check` answers every request itself ('qa'): say who, rather than blame a user.
      return `${what}, and ${decidedBy.startsWith('user') ? 'the user' : decidedBy} rejected it`;
    case 'cancelled':
      return `${what}; the request was cancelled (session/cancel) before anyone answered`;
    case 'no-person':
      return `${what}, and nobody can answer in this non-interactive session. To allow it, run with ${ALLOW_SENSITIVE_FLAG} (acp-workbench run), or open the session in the app and choose Allow`;
  }
}

/** Thrown by the gate; fs-access turns it into a JSON-RPC error naming the path and the reason. */
export class SensitiveFileRefused extends Error {
  override readonly name = 'SensitiveFileRefused';
  constructor(
    readonly access: SensitiveFileAccess,
    readonly refusal: SensitiveFileRefusalKind,
    readonly decidedBy: string,
  ) {
    super(sensitiveFileRefusalMessage(access, refusal, decidedBy));
  }
}

/** Ask `approve` when the access touches a sensitive file; throw SensitiveFileRefused unless allowed. */
export async function gateSensitiveFile(access: SensitiveFileAccess, approve: SensitiveFileApprover | undefined): Promise<void> {
  if (!isSensitiveAccess(access.path, access.realPath)) return;
  if (!approve) throw new SensitiveFileRefused(access, 'no-person', 'sensitive-path');
  const verdict = await approve(access);
  if (!verdict.allowed) throw new SensitiveFileRefused(access, verdict.refusal, verdict.decidedBy);
}
