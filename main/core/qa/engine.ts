/**
 * The conformance engine: feeds trace records, one at a time, through every rule and keeps the
 * findings. The same engine runs live (records as a connection writes them) and over a trace file
 * (`conformanceReport`). Evidence is trace line numbers: line 1 is the header, so without corrupt
 * lines record i (from 0) is line i + 2.
 */
import type { TraceHeader, TraceRecord } from '../../../common/trace/records';
import { ConformanceContext, type ConformanceOptions } from './context';
import { takePlainUpdate } from './plain-update';
import { RULES } from './rules';
import type { Drafts, Finding, FindingDraft, RecordClass, Rule, Severity } from './types';

/** Evidence kept per finding (the count in the message stays exact). */
const MAX_EVIDENCE = 50;

export interface EngineOptions extends ConformanceOptions {
  rules?: readonly Rule[];
  /**
   * Take plain `session/update` notifications by the fast path (plain-update.ts): on by default
   * with the default rules (it knows what they check), never with other rules. `false`: every
   * record goes through the rules (what the fast path is tested against).
   */
  plainUpdates?: boolean;
}

/** What `observe` returns for a record that adds no finding (nearly all): shared, frozen. */
const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

interface Kept {
  finding: Finding;
  first: string;
  count: number;
}

export class ConformanceEngine {
  readonly ctx: ConformanceContext;
  private readonly rules: readonly Rule[];
  /** The rules with a `tick` / an `observe`, looked up once (every record goes through them). */
  private readonly tickRules: readonly Rule[];
  /** The rules that look at each class of record, in the order of `rules`. */
  private readonly observeRules = new Map<RecordClass, readonly Rule[]>();
  private readonly kept = new Map<string, Kept>();
  /** Plain updates take the fast path (see EngineOptions.plainUpdates). */
  private readonly plainUpdates: boolean;
  private readonly listeners = new Set<(finding: Finding) => void>();
  private nextLine = 2;
  private finished = false;

  constructor(header?: TraceHeader, options: EngineOptions = {}) {
    this.ctx = new ConformanceContext(header, options);
    this.rules = options.rules ?? RULES;
    this.plainUpdates = this.rules === RULES && options.plainUpdates !== false;
    this.tickRules = this.rules.filter((r) => r.tick);
    for (const c of RECORD_CLASSES) this.observeRules.set(c, this.rules.filter((r) => r.observe && (!r.on || r.on.includes(c))));
  }

  setHeader(header: TraceHeader): void {
    this.ctx.setHeader(header);
  }

  /** Feed the next record; `line` defaults to the one after the previous record. Returns the findings it added or extended. */
  observe(record: TraceRecord, line = this.nextLine): readonly Finding[] {
    this.nextLine = line + 1;
    if (this.plainUpdates && takePlainUpdate(record, this.ctx)) return NO_FINDINGS;
    // Most records add no finding: the set is made only when one does.
    let changed: Set<Finding> | undefined;
    for (const rule of this.tickRules) changed = this.keep(rule, rule.tick!(record.t, this.ctx), changed);
    this.ctx.begin(record, line);
    for (const rule of this.observeRules.get(classOf(record, this.ctx))!) changed = this.keep(rule, rule.observe!(record, line, this.ctx), changed);
    this.ctx.end();
    return changed ? this.emit(changed) : NO_FINDINGS;
  }

  /** The trace or connection ended: time rules judge what is still open. Idempotent. */
  finish(): Finding[] {
    if (this.finished) return [];
    this.finished = true;
    let changed: Set<Finding> | undefined;
    for (const rule of this.tickRules) changed = this.keep(rule, rule.tick!(this.ctx.lastT, this.ctx), changed);
    for (const rule of this.rules) if (rule.finish) changed = this.keep(rule, rule.finish(this.ctx), changed);
    return changed ? this.emit(changed) : [];
  }

  /** Every finding so far, ordered by the line of its first evidence. */
  findings(): Finding[] {
    return [...this.kept.values()].map((k) => ({ ...k.finding, evidence: [...k.finding.evidence] })).sort((a, b) => (a.evidence[0] ?? 0) - (b.evidence[0] ?? 0));
  }

  /** Called with each new or extended finding, as records arrive. */
  onFinding(listener: (finding: Finding) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private keep(rule: Rule, drafts: Drafts, changed: Set<Finding> | undefined): Set<Finding> | undefined {
    if (!drafts || (Array.isArray(drafts) && drafts.length === 0)) return changed;
    const set = changed ?? new Set<Finding>();
    for (const draft of Array.isArray(drafts) ? drafts : [drafts]) set.add(this.add(rule, draft));
    return set;
  }

  private add(rule: Rule, draft: FindingDraft): Finding {
    const key = `${rule.id}\u0000${draft.key ?? `@${draft.evidence[0] ?? ''}:${draft.message}`}`;
    const kept = this.kept.get(key);
    if (!kept) {
      const finding: Finding = { rule: rule.id, severity: rule.severity, message: draft.message, evidence: unique(draft.evidence).slice(0, MAX_EVIDENCE) };
      this.kept.set(key, { finding, first: draft.message, count: 1 });
      return finding;
    }
    kept.count++;
    kept.finding.message = `${kept.first} (${kept.count} times)`;
    const evidence = kept.finding.evidence;
    for (const line of draft.evidence) if (evidence.length < MAX_EVIDENCE && !evidence.includes(line)) evidence.push(line);
    return kept.finding;
  }

  private emit(changed: Set<Finding>): Finding[] {
    const out = [...changed];
    for (const finding of out) for (const l of this.listeners) l(finding);
    return out;
  }
}

const unique = (lines: number[]): number[] => [...new Set(lines)];

const RECORD_CLASSES: readonly RecordClass[] = ['in-request', 'in-notification', 'in-response', 'in-invalid', 'out', 'noise', 'oversize', 'event'];

/** The class of the current record (after `ctx.begin`, which read its envelope). */
function classOf(record: TraceRecord, ctx: ConformanceContext): RecordClass {
  switch (record.kind) {
    case 'wire':
      if (record.dir === 'out') return 'out';
      switch (ctx.current.envelope?.shape) {
        case 'request':
          return 'in-request';
        case 'notification':
          return 'in-notification';
        case 'response':
          return 'in-response';
        default:
          return 'in-invalid';
      }
    case 'noise':
      return 'noise';
    case 'oversize':
      return 'oversize';
    default:
      return 'event';
  }
}

export interface NumberedRecord {
  record: TraceRecord;
  line: number;
}

export interface ConformanceReport {
  agent: { name?: string; title?: string; version?: string } | null;
  protocolVersion: number | null;
  capabilities: Record<string, unknown> | null;
  findings: Finding[];
  counts: Record<Severity, number>;
}

/**
 * The report of a whole trace. Records are numbered i + 2 unless given with their line numbers
 * (`readTrace` yields them; corrupt lines shift the numbering).
 */
export function conformanceReport(
  trace: { header?: TraceHeader; records: Iterable<TraceRecord | NumberedRecord> },
  options: EngineOptions = {},
): ConformanceReport {
  const engine = new ConformanceEngine(trace.header, options);
  for (const item of trace.records) {
    if ('kind' in item) engine.observe(item);
    else engine.observe(item.record, item.line);
  }
  engine.finish();
  return reportOf(engine);
}

export function reportOf(engine: ConformanceEngine): ConformanceReport {
  const init = engine.ctx.initialize;
  const info = init?.agentInfo as ConformanceReport['agent'] | undefined;
  const findings = engine.findings();
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return {
    agent: info && typeof info === 'object' ? info : null,
    protocolVersion: typeof init?.protocolVersion === 'number' ? init.protocolVersion : null,
    capabilities: init ? ((init.agentCapabilities as Record<string, unknown> | undefined) ?? {}) : null,
    findings,
    counts,
  };
}
