/**
 * Conformance findings and the rules that produce them. A rule watches trace records one at a
 * time (live on a connection, or from a trace file) and reports what an agent did against the
 * protocol; docs/conformance.md describes every rule by its id.
 */
import type { TraceRecord } from '../../../common/trace/records';
import type { ConformanceContext } from './context';

export type Severity = 'error' | 'warning' | 'info';

export interface RuleInfo {
  /** Stable id: scripts filter on it, docs/conformance.md has a section per id. */
  id: string;
  severity: Severity;
  /** One sentence: why it matters. */
  rationale: string;
  /** Where it is documented. */
  docs: string;
}

/** One problem, with the trace lines (1 = the header) that show it. */
export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  evidence: number[];
}

/**
 * What a rule reports for one record. Drafts with the same `key` merge into one finding (its
 * evidence grows), so 500 noise lines make one finding, not 500.
 */
export interface FindingDraft {
  message: string;
  evidence: number[];
  key?: string;
}

export type Drafts = FindingDraft | FindingDraft[] | undefined | void;

/** What a record is: the engine calls a rule's `observe` only for the classes it names. */
export type RecordClass = 'in-request' | 'in-notification' | 'in-response' | 'in-invalid' | 'out' | 'noise' | 'oversize' | 'event';

/** Requests and notifications from the agent. */
export const IN_CALLS: readonly RecordClass[] = ['in-request', 'in-notification'];
/** Answers from the agent. */
export const IN_ANSWERS: readonly RecordClass[] = ['in-response'];
/** Every wire message from the agent. */
export const IN_MESSAGES: readonly RecordClass[] = ['in-request', 'in-notification', 'in-response', 'in-invalid'];

export interface Rule extends RuleInfo {
  /**
   * The records `observe` looks at (absent: every record). A declaration of what the rule's own
   * first test already says, so that the engine can skip it for the others (most records are
   * `session/update` notifications, which most rules never look at).
   */
  on?: readonly RecordClass[];
  /** A record at trace line `line`; the context describes the connection as it was before it. */
  observe?(record: TraceRecord, line: number, ctx: ConformanceContext): Drafts;
  /** Record time has reached `t` (called before each record, and at the end with the last time). */
  tick?(t: number, ctx: ConformanceContext): Drafts;
  /** The trace (or the connection) ended. */
  finish?(ctx: ConformanceContext): Drafts;
}

export const docsLink = (id: string): string => `docs/conformance.md#${id}`;
