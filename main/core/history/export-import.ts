/**
 * A session out of history — as its trace (the connection's header plus that session's records,
 * byte for byte), as Markdown, as JSON transcript entries — and traces into history. A session
 * recorded over several connections (resumed onto the same id) exports as a bundle: its traces one
 * after the other, each starting with its own header; import splits bundles again.
 */
import { createHash } from 'node:crypto';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from '../../../common/trace/records';
import { listTraceSessions } from '../../../common/trace/sessions';
import { parseTraceText } from '../../../common/trace/parse';
import { entryList, type Transcript } from '../../../common/transcript/model';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import type { HistoryEntry } from './history-types';
import { renderSessionMarkdown } from './render-markdown';
import type { SessionPiece } from './session-records';

export type ExportFormat = 'jsonl' | 'md' | 'json';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'md', 'json'];

export interface ExportResult {
  text: string;
  /** What the reader should know (corrupt lines left out, a header made up). */
  warnings: string[];
}

export const SESSION_EXPORT_FORMAT = 'acp-workbench-session';

function corruptWarnings(pieces: readonly SessionPiece[]): string[] {
  const out: string[] = [];
  for (const p of pieces) {
    const bad = p.corrupt.filter((c) => !c.torn);
    const torn = p.corrupt.find((c) => c.torn);
    if (bad.length) out.push(`${p.location.path}: ${bad.length} corrupt line(s) left out (first: line ${bad[0]!.line}, ${bad[0]!.reason})`);
    if (torn) out.push(`${p.location.path}: the last line is torn (a crash mid-write) and was left out`);
  }
  return out;
}

export function transcriptsOf(pieces: readonly SessionPiece[]): Transcript[] {
  return pieces.map((p) => rebuildTranscript(p.records));
}

export function exportPieces(entry: HistoryEntry, pieces: readonly SessionPiece[], format: ExportFormat): ExportResult {
  const warnings = corruptWarnings(pieces);
  if (format === 'jsonl') {
    const lines: string[] = [];
    for (const p of pieces) {
      let headerLine = p.headerLine;
      if (headerLine === undefined) {
        // Without its header a trace cannot be read back: make up a minimal one from the index.
        const made: TraceHeader = {
          kind: 'header',
          format: TRACE_FORMAT,
          version: TRACE_FORMAT_VERSION,
          connectionId: p.location.connectionId,
          startedAt: entry.createdAt,
          startedAtMs: entry.createdMs,
          launch: { command: entry.agent.label, args: [], cwd: entry.cwd ?? '', env: [] },
          clientCapabilities: null,
        };
        headerLine = JSON.stringify(made);
        warnings.push(`${p.location.path}: its header is unreadable; the export carries a reconstructed one`);
      }
      lines.push(headerLine, ...p.records.map((r) => p.lines.get(r)!));
    }
    return { text: `${lines.join('\n')}\n`, warnings };
  }
  const transcripts = transcriptsOf(pieces);
  if (format === 'md') return { text: renderSessionMarkdown(entry, transcripts), warnings };
  const doc = {
    format: SESSION_EXPORT_FORMAT,
    version: 1,
    session: entry,
    transcripts: transcripts.map((t, i) => ({
      connectionId: pieces[i]!.location.connectionId,
      entries: entryList(t),
      fileChanges: t.fileChanges,
      terminals: t.terminals,
      state: t.session,
    })),
  };
  return { text: `${JSON.stringify(doc)}\n`, warnings };
}

/** A file's traces: one, or several in a bundle (a new trace starts at each header line). */
export function splitTraces(text: string): string[] {
  const lines = text.split('\n');
  const parts: string[][] = [];
  for (const line of lines) {
    const isHeader = line.startsWith('{') && line.includes('"kind":"header"') && (() => {
      try {
        const v = JSON.parse(line) as { kind?: unknown; format?: unknown };
        return v.kind === 'header' && v.format === TRACE_FORMAT;
      } catch {
        return false;
      }
    })();
    if (isHeader || parts.length === 0) parts.push([]);
    parts[parts.length - 1]!.push(line);
  }
  return parts.map((p) => p.join('\n')).map((p) => (p.endsWith('\n') || p === '' ? p : `${p}\n`)).filter((p) => p.trim() !== '');
}

export interface TraceToImport {
  text: string;
  sha256: string;
  connectionId: string;
  sessionIds: string[];
  corruptLines: number;
}

/** Checks one trace of an import; throws with a readable reason when it is not a usable trace. */
export function inspectTrace(text: string, source: string): TraceToImport {
  const parsed = parseTraceText(text);
  if (!parsed.header) {
    const why = parsed.corrupt.find((c) => c.line === 1)?.reason ?? 'line 1 is not a trace header';
    throw new Error(`${source} is not an acp-workbench trace: ${why}`);
  }
  const sessionIds = listTraceSessions(parsed.records).map((s) => s.sessionId);
  if (sessionIds.length === 0) throw new Error(`${source} (connection ${parsed.header.connectionId}) holds no session`);
  if (!/^[0-9A-Za-z_-]{1,80}$/.test(parsed.header.connectionId)) throw new Error(`${source}: connection id ${JSON.stringify(parsed.header.connectionId)} is not usable as a file name`);
  return {
    text,
    sha256: createHash('sha256').update(text).digest('hex'),
    connectionId: parsed.header.connectionId,
    sessionIds,
    corruptLines: parsed.corrupt.filter((c) => !c.torn).length,
  };
}

export function importedFileName(t: TraceToImport): string {
  return `${t.connectionId}.import-${t.sha256.slice(0, 12)}.jsonl`;
}
