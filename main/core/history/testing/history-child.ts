/**
 * A separate process using the history store, for history-concurrency.test.ts.
 *   write DATA PREFIX COUNT: records COUNT sessions, each through a real TraceWriter, and catches
 *                            the index up after each one (as the app does when its history view is
 *                            open), so several of these fight over the index lock.
 *   tag DATA ID PREFIX COUNT: adds COUNT tags to one session, one journal line each.
 * Prints "done" and exits 0 when finished.
 */
import { join } from 'node:path';
import { TraceWriter } from '../trace-writer';
import { HistoryStore } from '../history-store';
import { header, sessionRecords, testId } from './traces';
import type { TraceHeader, TraceRecord } from '../../../../common/trace/records';

async function write(dataDir: string, prefix: string, count: number): Promise<void> {
  const store = await HistoryStore.open(dataDir, { alive: () => false });
  for (let i = 0; i < count; i++) {
    const connectionId = `${prefix}-conn-${i}`;
    const writer = await TraceWriter.open(join(dataDir, 'traces', `${connectionId}.jsonl`), header(connectionId, Date.now()) as unknown as TraceHeader);
    const sessionId = testId(Date.now(), prefix);
    for (const r of sessionRecords({ sessionId, prompt: `${prefix} prompt ${i}`, answer: `answer with marker${prefix}${i}` })) writer.append(r as unknown as TraceRecord);
    writer.append({ kind: 'exit', t: 1000, code: 0, signal: null, expected: true });
    await writer.close();
    await store.refresh();
  }
  await store.close();
}

async function tag(dataDir: string, id: string, prefix: string, count: number): Promise<void> {
  const store = await HistoryStore.open(dataDir, { alive: () => false });
  for (let i = 0; i < count; i++) await store.tag(id, { add: [`${prefix}-${i}`] });
  await store.close();
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'write') await write(args[0]!, args[1]!, Number(args[2]));
  else if (mode === 'tag') await tag(args[0]!, args[1]!, args[2]!, Number(args[3]));
  else throw new Error(`unknown mode ${mode}`);
  process.stdout.write('done\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
