/**
 * Turns trace lines back into the header and records, line by line. Pure (no I/O) so the Node
 * reader, the tests and anything in the renderer share one notion of "corrupt". Nothing is hidden:
 * every line that is not a valid header or record becomes a `corrupt` item with its line number.
 */
import { isJsonObject, type JsonObject } from './json';
import {
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  TRACE_RECORD_KINDS,
  type TraceHeader,
  type TraceRecord,
  type TraceRecordKind,
} from './records';

export interface CorruptLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
  /** The start of the line, for the report. */
  text: string;
  /** The last line had no newline: the writer was interrupted mid-line (a crash). */
  torn?: boolean;
}

export type TraceItem =
  | { type: 'header'; line: number; header: TraceHeader }
  | { type: 'record'; line: number; record: TraceRecord }
  | ({ type: 'corrupt' } & CorruptLine);

export interface ParsedTrace {
  header: TraceHeader | undefined;
  records: TraceRecord[];
  corrupt: CorruptLine[];
}

const PREFIX_CHARS = 120;
const KNOWN_KINDS = new Set<string>(TRACE_RECORD_KINDS);

const isString = (v: unknown): v is string => typeof v === 'string';
const isDir = (v: unknown) => v === 'in' || v === 'out';
const isRpcId = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number';

/** What each kind must have for readers (the reducer, the index) to rely on it. */
const REQUIRED: Record<TraceRecordKind, (r: JsonObject) => string | undefined> = {
  wire: (r) => (!isDir(r.dir) ? 'missing "dir"' : !isJsonObject(r.msg) ? '"msg" is not an object' : undefined),
  noise: (r) => (!isDir(r.dir) ? 'missing "dir"' : !isString(r.text) && !isString(r.base64) ? 'needs "text" or "base64"' : undefined),
  oversize: (r) => (!isDir(r.dir) || typeof r.length !== 'number' || !isString(r.sha256) ? 'needs "dir", "length", "sha256"' : undefined),
  stderr: (r) => (!isString(r.text) ? 'missing "text"' : undefined),
  spawn: () => undefined,
  exit: (r) => (!('code' in r) || !('signal' in r) ? 'needs "code" and "signal"' : undefined),
  prompt: (r) => (!isRpcId(r.requestId) ? 'missing "requestId"' : undefined),
  'permission-asked': (r) => (!isRpcId(r.requestId) ? 'missing "requestId"' : undefined),
  'permission-decided': (r) =>
    !isRpcId(r.requestId) ? 'missing "requestId"' : r.outcome !== 'selected' && r.outcome !== 'cancelled' ? 'bad "outcome"' : undefined,
  cancel: () => undefined,
  'fs-write': (r) => (!isString(r.path) || !isString(r.newText) ? 'needs "path" and "newText"' : undefined),
  terminal: (r) => (!isString(r.terminalId) || !isString(r.action) ? 'needs "terminalId" and "action"' : undefined),
  session: (r) => (!isString(r.sessionId) || !isString(r.action) ? 'needs "sessionId" and "action"' : undefined),
  'session-meta': (r) => (!isString(r.sessionId) ? 'missing "sessionId"' : undefined),
  notice: (r) => (!isString(r.message) ? 'missing "message"' : undefined),
};

/**
 * Parses one line at a time, in file order. `final` marks a last line that had no newline: if it
 * is not a complete record it is reported as torn rather than corrupt.
 */
export class TraceLineParser {
  private lineNo = 0;

  parse(text: string, final = false): TraceItem {
    const line = ++this.lineNo;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const item = this.classify(text, line);
    if (item.type === 'corrupt' && final) {
      return { ...item, reason: `torn last line (no newline: the writer stopped mid-line); ${item.reason}`, torn: true };
    }
    return item;
  }

  /** Counts a line the caller could not even decode (e.g. invalid UTF-8) and reports it. */
  reject(reason: string, text: string, final = false): TraceItem {
    const line = ++this.lineNo;
    return {
      type: 'corrupt',
      line,
      reason: final ? `torn last line (no newline: the writer stopped mid-line); ${reason}` : reason,
      text: text.slice(0, PREFIX_CHARS),
      ...(final ? { torn: true } : {}),
    };
  }

  private classify(text: string, line: number): TraceItem {
    const corrupt = (reason: string): TraceItem => ({ type: 'corrupt', line, reason, text: text.slice(0, PREFIX_CHARS) });
    if (text.trim() === '') return corrupt('empty line');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return corrupt(`not JSON (${(err as Error).message})`);
    }
    if (!isJsonObject(value)) return corrupt('not a JSON object');
    if (line === 1) return headerItem(value, corrupt);
    if (value.kind === 'header') return corrupt('a header after line 1');
    const kind = value.kind;
    if (!isString(kind) || !KNOWN_KINDS.has(kind)) return corrupt(`unknown record kind ${JSON.stringify(kind)}`);
    if (typeof value.t !== 'number' || !Number.isFinite(value.t)) return corrupt('missing timestamp "t"');
    const problem = REQUIRED[kind as TraceRecordKind](value);
    if (problem) return corrupt(`${kind} record: ${problem}`);
    return { type: 'record', line, record: value as unknown as TraceRecord };
  }
}

function headerItem(value: JsonObject, corrupt: (reason: string) => TraceItem): TraceItem {
  if (value.kind !== 'header' || value.format !== TRACE_FORMAT) return corrupt('line 1 is not a trace header');
  if (typeof value.version !== 'number') return corrupt('header has no version');
  if (value.version > TRACE_FORMAT_VERSION) {
    return corrupt(`trace format version ${value.version} is newer than this build reads (${TRACE_FORMAT_VERSION})`);
  }
  return { type: 'header', line: 1, header: value as unknown as TraceHeader };
}

/** Parses a whole trace held in memory (fixtures, imports). */
export function parseTraceText(text: string): ParsedTrace {
  const parser = new TraceLineParser();
  const out: ParsedTrace = { header: undefined, records: [], corrupt: [] };
  const lines = text.split('\n');
  // A file that ends with a newline splits into a last empty piece that is not a line.
  const last = lines.pop()!;
  const items = lines.map((l) => parser.parse(l));
  if (last !== '') items.push(parser.parse(last, true));
  for (const item of items) collect(out, item);
  return out;
}

export function collect(into: ParsedTrace, item: TraceItem): void {
  if (item.type === 'header') into.header = item.header;
  else if (item.type === 'record') into.records.push(item.record);
  else {
    const { type: _type, ...corrupt } = item;
    into.corrupt.push(corrupt);
  }
}
