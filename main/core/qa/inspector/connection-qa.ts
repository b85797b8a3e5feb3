/**
 * Everything QA keeps for one live connection of the app: the inspector's rows (metadata only: the
 * text is read back from the connection's trace), the live conformance engine fed with every
 * record, and the fault rules / manual answers the client handlers and the broker ask first.
 * Changes are told in batches (at most one event of each kind per 100 ms), never once per record.
 */
import type { FindingsResult, FindingSeverity, FindingView, ManualRequestView } from '../../../../common/api/qa-types';
import type { RecordListener } from '../../acp/agent-connection';
import type { ClientRequestInterceptor } from '../../acp/client-handlers';
import { ConformanceEngine } from '../engine';
import { FaultSet } from '../faults/fault-set';
import { ruleRationale } from '../rules';
import { docsLink } from '../types';
import { InspectorStore } from './inspector-store';
import { TraceLines, type TraceFile } from './trace-lines';

/** The part of AgentConnection this needs (an interface: tests use a fake). */
export interface ObservedConnection {
  onRecord(listener: RecordListener): { dispose(): void };
  faults: ClientRequestInterceptor | undefined;
  /** The connection's trace: the inspector reads message text back from it. */
  readonly trace: TraceFile;
}

export interface ConnectionQaEvents {
  /** New inspector rows: `all` rows now. */
  appended(all: number): void;
  findingsChanged(counts: Record<FindingSeverity, number>): void;
  manualChanged(pending: ManualRequestView[]): void;
}

export const QA_EVENT_INTERVAL_MS = 100;

export class ConnectionQa {
  readonly inspector: InspectorStore;
  readonly engine = new ConformanceEngine();
  readonly faults: FaultSet;
  private readonly subscriptions: Array<{ dispose(): void }> = [];
  private appendedTimer: ReturnType<typeof setTimeout> | undefined;
  private findingsTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    connection: ObservedConnection,
    sessionId: string,
    private readonly events: ConnectionQaEvents,
  ) {
    this.inspector = new InspectorStore(new TraceLines(connection.trace));
    this.faults = new FaultSet(sessionId);
    connection.faults = this.faults;
    this.subscriptions.push(
      connection.onRecord((record, line, msgBytes, span) => {
        if (this.inspector.add(record, line, msgBytes?.length, span)) this.appendedTimer ??= setTimeout(() => this.tellAppended(), QA_EVENT_INTERVAL_MS);
        if (this.engine.observe(record, line).length) this.findingsTimer ??= setTimeout(() => this.tellFindings(), QA_EVENT_INTERVAL_MS);
      }),
      this.faults.manual.onChange(() => this.events.manualChanged(this.faults.pending())),
    );
  }

  findings(): FindingsResult {
    const counts: Record<FindingSeverity, number> = { error: 0, warning: 0, info: 0 };
    const findings: FindingView[] = this.engine.findings().map((f) => {
      counts[f.severity]++;
      const rows = f.evidence.map((line) => this.inspector.rowOfLine(line)).filter((i): i is number => i !== undefined);
      return { rule: f.rule, severity: f.severity, message: f.message, evidence: f.evidence, rows, docs: docsLink(f.rule), rationale: ruleRationale(f.rule) };
    });
    return { findings, counts };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.appendedTimer);
    clearTimeout(this.findingsTimer);
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.faults.dispose();
  }

  private tellAppended(): void {
    this.appendedTimer = undefined;
    if (!this.disposed) this.events.appended(this.inspector.size);
  }

  private tellFindings(): void {
    this.findingsTimer = undefined;
    if (!this.disposed) this.events.findingsChanged(this.findings().counts);
  }
}
