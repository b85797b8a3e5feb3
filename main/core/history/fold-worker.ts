/**
 * Worker-thread entry of fold-pool.ts (bundled to dist/workers/history-fold.cjs): folds the trace
 * files it is sent, answers with what the index keeps of each, adds their words to its segment
 * builder under provisional numbers until the main thread sends their document ids
 * (worker-builder.ts), and writes its own segments (when full, and when told to finish).
 * When told to finish it merges what it wrote into one segment if that is more than `keepSegments`
 * (worker-merge.ts), so a big rebuild ends with one merge per worker, in parallel, instead of a
 * serial merge of them all on the main thread.
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { foldTraceFileSync } from './fold-file';
import type { FoldWorkerData, WorkerReply, WorkerRequest, WrittenSegment } from './fold-pool';
import { WorkerBuilder, type ProvisionalSegment } from './worker-builder';
import { mergeWritten } from './worker-merge';

const port = parentPort;
if (!port) throw new Error('history-fold.cjs runs as a worker thread of the history index');
const data = workerData as FoldWorkerData;
const reply = (msg: WorkerReply) => port.postMessage(msg);

const written: WrittenSegment[] = [];
let writes: Promise<void> = Promise.resolve();

/** A sealed builder whose documents all have their ids: written in turn, after the ones before. */
function writeSegment({ builder, docIds, seq }: ProvisionalSegment): void {
  const name = `${data.prefix}${seq}.idx`;
  written[seq] = { name, bytes: 0, docs: 0, terms: 0 };
  writes = writes.then(async () => {
    const info = await builder.write(join(data.segmentsDir, name), docIds);
    builder.release();
    written[seq] = { name, bytes: info.bytes, docs: info.docs, terms: info.terms };
  });
  writes.catch((err: unknown) => reply({ type: 'error', message: (err as Error).message }));
}

const segments = new WorkerBuilder(data.flushPostings, writeSegment);

port.on('message', (msg: WorkerRequest) => {
  if (msg.type === 'fold') {
    // Synchronous reads: this thread has nothing else to do while a file is read.
    let f;
    try {
      f = foldTraceFileSync(msg.input);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      reply({ type: 'failed', key: msg.key, message: e?.message ?? String(err), ...(e?.code ? { code: e.code } : {}) });
      return;
    }
    const docs = f.docs.map((d) => ({ sessionId: d.sessionId, length: d.length }));
    reply({ type: 'folded', key: msg.key, tail: f.tail, detailJson: JSON.stringify(f.detail), card: f.card, settled: f.settled, docs });
    // Its words go into the builder now, under provisional numbers (worker-builder.ts).
    segments.add(msg.key, f.docs);
  } else if (msg.type === 'ids') {
    segments.resolve(msg.key, msg.ids);
  } else if (msg.type === 'finish') {
    try {
      segments.finish();
    } catch (err) {
      reply({ type: 'error', message: (err as Error).message });
      return;
    }
    writes
      .then(() => mergeWritten(data.segmentsDir, `${data.prefix}merged.idx`, written, data.keepSegments))
      .then(
        (segments) => reply({ type: 'finished', segments }),
        (err: unknown) => reply({ type: 'error', message: (err as Error).message }),
      );
  }
});
