/**
 * The conformance report stored for each run (`<out>/<agent>/<case>/conformance.json`): the
 * workbench's own conformance engine (main/core/qa, the rules of docs/conformance.md) over the
 * run's trace, beside the deviations the suite observes itself (findings.ts). Engine findings also
 * count in the per-agent line, as `conformance:<rule>`.
 */
import type { ParsedTrace } from '../../../common/trace/parse';
import { conformanceReport as engineReport, type ConformanceReport as EngineReport } from '../../../main/core/qa/engine';
import type { Finding } from './findings';

export interface ConformanceReport {
  engine: EngineReport;
  observed: Finding[];
}

export function conformanceReport(trace: ParsedTrace, _sessionId: string, observed: Finding[]): ConformanceReport {
  return { engine: engineReport({ ...(trace.header ? { header: trace.header } : {}), records: trace.records }), observed };
}

/** The engine's rule ids as per-agent findings. */
export function engineFindingIds(report: ConformanceReport): string[] {
  return report.engine.findings.map((f) => `conformance:${f.rule}`);
}
