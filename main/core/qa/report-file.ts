/** The conformance report of a trace file, numbered by the file's own lines (corrupt lines included). */
import type { CorruptLine } from '../../../common/trace/parse';
import type { TraceHeader } from '../../../common/trace/records';
import { readTrace } from '../history/trace-reader';
import { ConformanceEngine, reportOf, type ConformanceReport, type EngineOptions } from './engine';

export async function conformanceReportFromFile(path: string, options: EngineOptions = {}): Promise<ConformanceReport & { corrupt: CorruptLine[] }> {
  let header: TraceHeader | undefined;
  const engine = new ConformanceEngine(undefined, options);
  const corrupt: CorruptLine[] = [];
  for await (const item of readTrace(path)) {
    if (item.type === 'header') {
      header = item.header;
      engine.setHeader(header);
    } else if (item.type === 'record') engine.observe(item.record, item.line);
    else {
      const { type: _type, ...line } = item;
      corrupt.push(line);
    }
  }
  engine.finish();
  return { ...reportOf(engine), corrupt };
}
