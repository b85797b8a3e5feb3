/**
 * A recorded trace's conformance report as the Markdown the app's Conformance tab exports
 * (common/text/conformance-markdown.ts), numbered by the trace's lines: `trace check --markdown`.
 * The trace is read twice — once by the engine, once for the few lines the findings point at — so
 * a long trace is never held in memory.
 */
import type { FindingView } from '../../../common/api/qa-types';
import { conformanceMarkdown, EVIDENCE_PER_FINDING, type EvidenceMessage } from '../../../common/text/conformance-markdown';
import type { TraceHeader } from '../../../common/trace/records';
import { readTrace } from '../history/trace-reader';
import { conformanceReportFromFile } from './report-file';
import { ruleRationale } from './rules';
import { docsLink } from './types';

export async function conformanceMarkdownFromFile(path: string, shown: string = path, at: number = Date.now()): Promise<{ markdown: string; errors: number }> {
  const report = await conformanceReportFromFile(path);
  const findings: FindingView[] = report.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    message: f.message,
    evidence: f.evidence,
    rows: f.evidence,
    docs: docsLink(f.rule),
    rationale: ruleRationale(f.rule),
  }));
  const wanted = new Set(findings.flatMap((f) => f.rows.slice(0, EVIDENCE_PER_FINDING)));
  const messages = new Map<number, EvidenceMessage>();
  let header: TraceHeader | undefined;
  for await (const item of readTrace(path)) {
    if (item.type === 'header') header = item.header;
    else if (item.type === 'record' && wanted.has(item.line)) messages.set(item.line, { index: item.line, record: item.record as unknown as Record<string, unknown> });
  }
  const command = header ? [header.launch.command, ...header.launch.args].join(' ') : '(not recorded)';
  const agent = {
    label: header?.agent?.name ?? header?.agent?.id ?? 'agent',
    name: report.agent?.name ?? header?.agent?.name,
    version: report.agent?.version ?? header?.agent?.version,
    protocolVersion: report.protocolVersion ?? undefined,
    command,
  };
  const markdown = conformanceMarkdown({ agent, report: { findings, counts: report.counts }, messages, at, rowLabel: 'Trace line', judged: `Judged by ACP Workbench from the recorded trace ${shown} (line numbers are the file's).` });
  return { markdown, errors: report.counts.error };
}
