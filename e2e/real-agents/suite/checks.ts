/** One assertion of a case, with what was seen, and (when the failure is a documented deviation) why it is known. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** Set when this check is expected to fail for this agent: the reason, as written in docs/agents.md. */
  known?: string;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

/** A case passes when every check holds or fails only in a documented way. */
export function caseStatus(checks: Check[]): CaseStatus {
  return checks.every((c) => c.ok || c.known) ? 'passed' : 'failed';
}

export const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });
