/**
 * Worker-thread entry of fold-pool.ts (bundled to dist/workers/history-fold.cjs): folds the trace
 * files it is sent, answers with what the index keeps of each, keeps their words until the main
 * thread sends their document ids, and writes its own segments (when full, and when told to finish).
 * When told to finish it merges what it wrote into one segment if that is more than `keepSegments`
 * (worker-merge.ts), so a big rebuild ends with one merge per worker, in parallel, instead of a
 * serial merge of them all on the main thread.
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { foldTraceFileSync, type FoldedDoc } from './fold-file';
import type { FoldWorkerData, WorkerReply, WorkerRequest, WrittenSegment } from './fold-pool';
import { SegmentBuilder } from './segment';
import { mergeWritten } from './worker-merge';

const port = parentPort;
if (!port) throw new Error('history-fold.cjs runs as a worker thread of the history index');
const data = workerData as FoldWorkerData;
const reply = (msg: WorkerReply) => port.postMessage(msg);

const waiting = new Map<number, FoldedDoc[]>();
const written: WrittenSegment[] = [];
let builder = new SegmentBuilder();
let writes: Promise<void> = Promise.resolve();

/** Writes the builder out; later words go to a fresh one while it is written. */
function flush(): void {
  if (builder.empty) return;
  const full = builder;
  builder = new SegmentBuilder();
  const name = `${data.prefix}${written.length}.idx`;
  const slot = written.push({ name, bytes: 0, docs: 0, terms: 0 }) - 1;
  writes = writes.then(async () => {
    const info = await full.write(join(data.segmentsDir, name));
    written[slot] = { name, bytes: info.bytes, docs: info.docs, terms: info.terms };
  });
  writes.catch((err: unknown) => reply({ type: 'error', message: (err as Error).message }));
}

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
    waiting.set(msg.key, f.docs);
    const docs = f.docs.map((d) => ({ sessionId: d.sessionId, length: d.length }));
    reply({ type: 'folded', key: msg.key, tail: f.tail, detailJson: JSON.stringify(f.detail), card: f.card, settled: f.settled, docs });
  } else if (msg.type === 'ids') {
    const docs = waiting.get(msg.key) ?? [];
    waiting.delete(msg.key);
    docs.forEach((d, i) => builder.addDocumentTerms(msg.ids[i]!, d.terms, d.weights, d.masks, d.hashes));
    if (builder.size > data.flushPostings) flush();
  } else if (msg.type === 'finish') {
    flush();
    writes
      .then(() => mergeWritten(data.segmentsDir, `${data.prefix}merged.idx`, written, data.keepSegments))
      .then(
        (segments) => reply({ type: 'finished', segments }),
        (err: unknown) => reply({ type: 'error', message: (err as Error).message }),
      );
  }
});
