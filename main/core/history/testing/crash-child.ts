/**
 * A process that writes a trace until it is SIGKILLed, for trace-writer.crash.test.ts.
 *   steady PATH: appends records of varied sizes every few ms, each carrying its sequence number
 *                and wall-clock time, and relies on the writer's own 100 ms flushes.
 *   torn PATH:   appends 10 records, flushes (prints "flushed 10"), then appends one record larger
 *                than a single write and stops the process between two of its writes (prints
 *                "mid-line"), so the kill lands with half a line on disk.
 */
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from '../../../../common/trace/records';
import { TraceWriter } from '../trace-writer';

const [mode, path] = process.argv.slice(2);
const header: TraceHeader = {
  kind: 'header',
  format: TRACE_FORMAT,
  version: TRACE_FORMAT_VERSION,
  connectionId: 'crash-test',
  startedAt: new Date().toISOString(),
  startedAtMs: Date.now(),
  launch: { command: 'crash-child', args: [], cwd: process.cwd(), env: [] },
  clientCapabilities: null,
};

async function main(): Promise<void> {
  const writer = await TraceWriter.open(path!, header, { maxWriteBytes: 64 * 1024 });
  let seq = 0;
  const append = (size: number) => writer.append({ kind: 'stderr', t: performance.now(), text: JSON.stringify({ seq: ++seq, wall: Date.now(), pad: 'p'.repeat(size) }) });

  if (mode === 'steady') {
    process.stdout.write('ready\n');
    setInterval(() => append((seq * 7919) % 20_000), 2);
    return;
  }
  for (let i = 0; i < 10; i++) append(100);
  await writer.flush();
  process.stdout.write(`flushed ${seq}\n`);
  const file = (writer as unknown as { file: { write: (...args: unknown[]) => Promise<unknown> } }).file;
  const write = file.write.bind(file);
  file.write = async (...args: unknown[]) => {
    const result = await write(...args);
    process.stdout.write('mid-line\n');
    // Hold the process between two writes of one line until the test kills it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    return result;
  };
  append(300_000);
  await writer.flush();
}

void main();
