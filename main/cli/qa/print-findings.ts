import type { ConformanceReport } from '../../core/qa';
import type { CliIo } from '../command';

/** Findings as aligned lines with their trace line numbers, then the counts (check and trace check). */
export function printFindings(io: CliIo, report: Pick<ConformanceReport, 'findings' | 'counts'>): void {
  const width = Math.max(0, ...report.findings.map((f) => f.rule.length));
  for (const f of report.findings) {
    const lines = f.evidence.length ? ` [line${f.evidence.length > 1 ? 's' : ''} ${f.evidence.join(', ')}]` : '';
    io.stdout(`${f.severity.toUpperCase().padEnd(7)} ${f.rule.padEnd(width)}  ${f.message}${lines}\n`);
  }
  const { error, warning, info } = report.counts;
  io.stdout(`${report.findings.length ? '\n' : ''}${error} error(s), ${warning} warning(s), ${info} info — rules: docs/conformance.md\n`);
}
