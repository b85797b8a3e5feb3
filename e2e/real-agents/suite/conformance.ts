/**
 * The conformance report stored for each run. The conformance engine is being written in
 * main/core/qa/ and did not exist when this suite was written, so each run stores what it can:
 * the CLI's summary, the findings the suite observes itself (findings.ts), and `engine: null`.
 *
 * TODO(issue #13): once main/core/qa/ exports its engine, call it here on the run's trace
 * (`trace.records`, `sessionId`) and return its report as `engine`; the suite already writes
 * this object to `<out>/<agent>/<case>/conformance.json` and counts `engine` findings in the
 * per-agent line. Nothing else needs to change.
 */
import type { ParsedTrace } from '../../../common/trace/parse';
import type { Finding } from './findings';

export interface ConformanceReport {
  engine: unknown;
  engineNote: string;
  observed: Finding[];
}

export function conformanceReport(_trace: ParsedTrace, _sessionId: string, observed: Finding[]): ConformanceReport {
  return {
    engine: null,
    engineNote: 'conformance engine (main/core/qa/) not available yet: observed findings only',
    observed,
  };
}
