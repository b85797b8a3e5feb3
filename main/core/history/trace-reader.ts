/**
 * Streams a trace file back as header, records and corrupt-line reports, in file order, without
 * holding the file in memory. A last line without its newline (the writer was killed mid-write)
 * is reported as torn; any other bad line is reported with its number. Nothing stops the read.
 */
import { createReadStream } from 'node:fs';
import { collect, TraceLineParser, type ParsedTrace, type TraceItem } from '../../../common/trace/parse';

const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

export async function* readTrace(path: string): AsyncGenerator<TraceItem> {
  const parser = new TraceLineParser();
  let pieces: Buffer[] = [];
  const line = (bytes: Buffer, final: boolean): TraceItem => {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      return parser.reject('not valid UTF-8', lenientUtf8.decode(bytes.subarray(0, 512)), final);
    }
    return parser.parse(text, final);
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        if (start < chunk.length) pieces.push(chunk.subarray(start));
        break;
      }
      const part = chunk.subarray(start, newline);
      const bytes = pieces.length === 0 ? part : Buffer.concat([...pieces, part]);
      pieces = [];
      yield line(bytes, false);
      start = newline + 1;
    }
  }
  if (pieces.length > 0) yield line(Buffer.concat(pieces), true);
}

/** Reads a whole trace into memory (CLI, tests, index rebuilds of small files). */
export async function readTraceFile(path: string): Promise<ParsedTrace> {
  const out: ParsedTrace = { header: undefined, records: [], corrupt: [] };
  for await (const item of readTrace(path)) collect(out, item);
  return out;
}
