import { resolve } from 'node:path';
import type { TraceRecord } from '../../../common/trace/records';
import { listTraceSessions, recordsForSession } from '../../../common/trace/sessions';
import { entryList, type Transcript } from '../../../common/transcript/model';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import { renderTranscriptText } from '../../../common/transcript/render-text';
import { readTraceFile } from '../../core/history/trace-reader';
import { conformanceReportFromFile } from '../../core/qa/report-file';
import { conformanceMarkdownFromFile } from '../../core/qa/report-markdown';
import { parseCommandArgs } from '../args';
import { printFindings } from '../qa/print-findings';
import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';

const USAGE = `Usage: acp-workbench trace render FILE [--session ID] [--json]
       acp-workbench trace check FILE [--json | --markdown]

Rebuild the transcript recorded in a trace file (docs/trace-format.md) and print it: readable
text, or with --json one entry per line. Corrupt lines are listed on stderr with their line
numbers; a torn last line is what a crash of the app or the agent leaves, and is reported as such.

\`trace check\` runs the conformance rules (docs/conformance.md) over a recorded trace and prints
the findings with their line numbers; it exits 1 when a finding is an error. With --markdown it
prints the report as the app's Conformance tab exports it: the agent, the counts, each finding with
why its rule matters and the first 3 trace lines it points at in full — for a bug report.

Options:
  --session ID   only this workbench session (a trace of \`check\` may hold several);
                 default: every session in the file
  --json         one JSON object per line: {"type":"entry","sessionId":ID,"entry":{...}}
  --markdown     (check) the report as Markdown`;

/** The conformance report of a recorded trace. */
async function checkTrace(io: CliIo, path: string, shown: string, json: boolean, markdown: boolean): Promise<ExitCode> {
  if (json && markdown) throw new UsageError('--json and --markdown cannot be combined');
  if (markdown) {
    try {
      const out = await conformanceMarkdownFromFile(path, shown);
      io.stdout(out.markdown);
      return out.errors > 0 ? ExitCode.checkFailed : ExitCode.ok;
    } catch (err) {
      io.stderr(`acp-workbench trace: cannot read ${shown}: ${(err as Error).message}\n`);
      return ExitCode.usage;
    }
  }
  let report;
  try {
    report = await conformanceReportFromFile(path);
  } catch (err) {
    io.stderr(`acp-workbench trace: cannot read ${shown}: ${(err as Error).message}\n`);
    return ExitCode.usage;
  }
  for (const c of report.corrupt) io.stderr(`${shown}:${c.line}: ${c.torn ? 'torn' : 'corrupt'}: ${c.reason}\n`);
  if (json) {
    const { findings, agent, protocolVersion, capabilities, counts } = report;
    io.stdout(`${JSON.stringify({ type: 'conformance', trace: path, agent, protocolVersion, capabilities, counts, findings })}\n`);
  } else {
    io.stdout(`Conformance report for ${shown}\n\n`);
    printFindings(io, report);
  }
  return report.counts.error > 0 ? ExitCode.checkFailed : ExitCode.ok;
}

interface Section {
  sessionId: string | null;
  agentSessionId?: string;
  transcript: Transcript;
}

export const traceCommand: CliCommand = {
  name: 'trace',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { session: { type: 'string' }, markdown: { type: 'boolean' } }, io.env);
    const [sub, file, ...extra] = args.positionals;
    if (sub !== 'render' && sub !== 'check') throw new UsageError(sub === undefined ? 'missing subcommand "render" or "check"' : `unknown subcommand "${sub}"`);
    if (file === undefined) throw new UsageError('missing trace FILE');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (sub === 'check') return checkTrace(io, resolve(io.cwd, file), file, Boolean(args.values.json), Boolean(args.values.markdown));
    if (args.values.markdown) throw new UsageError('--markdown is for trace check');

    const path = resolve(io.cwd, file);
    let trace;
    try {
      trace = await readTraceFile(path);
    } catch (err) {
      io.stderr(`acp-workbench trace: cannot read ${file}: ${(err as Error).message}\n`);
      return ExitCode.usage;
    }
    for (const c of trace.corrupt) {
      io.stderr(`${file}:${c.line}: ${c.torn ? 'torn' : 'corrupt'}: ${c.reason}${c.text ? ` — ${JSON.stringify(c.text)}` : ''}\n`);
    }

    const sections = sectionsOf(trace.records, args.values.session);
    if (sections === undefined) {
      const known = listTraceSessions(trace.records).map((s) => s.sessionId);
      io.stderr(`acp-workbench trace: no session ${args.values.session} in ${file}${known.length ? `; sessions: ${known.join(', ')}` : ''}\n`);
      return ExitCode.usage;
    }
    if (args.values.json) printJson(io, sections);
    else printText(io, sections, trace.header ? `${trace.header.launch.command} ${trace.header.launch.args.join(' ')}`.trim() : undefined);
    return ExitCode.ok;
  },
};

/** One section per session; the whole connection when the trace names no session. */
function sectionsOf(records: TraceRecord[], only: string | undefined): Section[] | undefined {
  const sessions = listTraceSessions(records);
  if (only !== undefined) {
    const info = sessions.find((s) => s.sessionId === only);
    if (!info) return undefined;
    sessions.splice(0, sessions.length, info);
  }
  if (sessions.length === 0) return [{ sessionId: null, transcript: rebuildTranscript(records) }];
  return sessions.map((s) => {
    const transcript = rebuildTranscript(recordsForSession(records, s.sessionId));
    const agentSessionId = transcript.session.agentSessionId ?? s.agentSessionId;
    return { sessionId: s.sessionId, ...(agentSessionId !== undefined ? { agentSessionId } : {}), transcript };
  });
}

function printJson(io: CliIo, sections: Section[]): void {
  for (const s of sections) {
    for (const entry of entryList(s.transcript)) io.stdout(`${JSON.stringify({ type: 'entry', sessionId: s.sessionId, entry })}\n`);
  }
}

function printText(io: CliIo, sections: Section[], launch: string | undefined): void {
  if (launch) io.stdout(`agent: ${launch}\n`);
  for (const s of sections) {
    const title = s.transcript.session.userTitle ?? s.transcript.session.title;
    const name = s.sessionId === null ? 'connection' : `session ${s.sessionId}`;
    const details = [s.agentSessionId ? `agent session ${s.agentSessionId}` : '', title ? `"${title}"` : ''].filter(Boolean).join(', ');
    io.stdout(`\n── ${name}${details ? ` (${details})` : ''} ──\n`);
    io.stdout(renderTranscriptText(s.transcript) || '(no entries)\n');
  }
}
