/**
 * One session's records out of its traces, with the exact lines they were read from (exports keep
 * the bytes as recorded). Routing is common/trace/sessions.ts's, over the whole trace, so untagged
 * records (answers, connection-wide events) land where the transcript rebuild puts them.
 */
import { readFile } from 'node:fs/promises';
import { TraceLineParser, type CorruptLine } from '../../../common/trace/parse';
import type { TraceHeader, TraceRecord } from '../../../common/trace/records';
import { recordsForSession } from '../../../common/trace/sessions';
import type { HistoryEntry, TraceLocation } from './history-types';

export interface SessionPiece {
  location: TraceLocation;
  header: TraceHeader | undefined;
  headerLine: string | undefined;
  /** The session's records (and the connection's), in trace order. */
  records: TraceRecord[];
  /** The line each record was read from. */
  lines: Map<TraceRecord, string>;
  corrupt: CorruptLine[];
}

/** A session's trace file that is no longer where history recorded it (moved or deleted by hand). */
export class TraceGoneError extends Error {
  constructor(readonly path: string) {
    super(`its trace file ${path} is gone (moved or deleted outside the workbench)`);
    this.name = 'TraceGoneError';
  }
}

export async function readSessionPiece(location: TraceLocation, sessionId: string): Promise<SessionPiece> {
  let text: string;
  try {
    text = await readFile(location.path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new TraceGoneError(location.path);
    throw err;
  }
  const parser = new TraceLineParser();
  const all: TraceRecord[] = [];
  const lines = new Map<TraceRecord, string>();
  const corrupt: CorruptLine[] = [];
  let header: TraceHeader | undefined;
  let headerLine: string | undefined;
  const raw = text.split('\n');
  const last = raw.pop()!;
  const items: Array<[string, boolean]> = raw.map((l) => [l, false]);
  if (last !== '') items.push([last, true]);
  for (const [line, final] of items) {
    const item = parser.parse(line, final);
    if (item.type === 'header') {
      header = item.header;
      headerLine = line.replace(/\r$/, '');
    } else if (item.type === 'record') {
      all.push(item.record);
      lines.set(item.record, line.replace(/\r$/, ''));
    } else {
      const { type: _type, ...c } = item;
      corrupt.push(c);
    }
  }
  return { location, header, headerLine, records: recordsForSession(all, sessionId), lines, corrupt };
}

export async function readSessionPieces(entry: HistoryEntry): Promise<SessionPiece[]> {
  const out: SessionPiece[] = [];
  for (const loc of entry.traces) out.push(await readSessionPiece(loc, entry.id));
  return out;
}
