/**
 * A workbench core in its own process, for workbench-kill.test.ts: a SessionManager with 4 fixture
 * agents streaming. Prints one JSON line once every trace has a streamed chunk on disk, then keeps
 * streaming until the test SIGKILLs it.
 *   node core-child.cjs DATA_DIR PROJECT_DIR FIXTURE_AGENT MARKER TEST_SUPPORT_DIR
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionManager } from '../session-manager';

const [dataDir, cwd, fixture, marker, __dirname_] = process.argv.slice(2) as [string, string, string, string, string];

function scenario(i: number): object {
  // Odd agents stream, then sit in a long delay ignoring stdin EOF (they survive the workbench
  // and must be reaped); even ones keep streaming (they may die of EPIPE on their own).
  const steps =
    i % 2
      ? [{ text: `agent ${i} streams once, then waits` }, { delay: 60_000 }]
      : [{ text: `agent ${i} streams `.repeat(2000), chunks: 2000, chunkDelayMs: 20 }];
  return { protocol: { exitOnStdinEnd: false }, defaultPrompt: { steps } };
}

async function main(): Promise<void> {
  const manager = new SessionManager({ paths: { dataDir, configDir: join(dataDir, 'config') }, host: 'kill-test', emit: () => undefined });
  const sessions = [];
  for (let i = 0; i < 4; i++) {
    // Odd agents survive their pipes closing (survivor-agent.cjs), even ones die of EPIPE.
    const args = [...(i % 2 ? [join(__dirname_, 'survivor-agent.cjs')] : []), fixture, '--scenario-json', JSON.stringify(scenario(i)), '--max-lifetime-ms', '90000', '--log-file', `${marker}-${i}.log`];
    sessions.push(await manager.start({ agent: { command: process.execPath, args, label: `agent-${i}` }, cwd, policy: 'none' }));
  }
  for (const s of sessions) void manager.prompt(s.sessionId, [{ type: 'text', text: 'stream' }]).catch(() => undefined);
  const onDisk = (trace: string | null) => trace !== null && readFileSync(trace, 'utf8').includes('agent_message_chunk');
  while (!sessions.every((s) => onDisk(s.trace))) await new Promise((r) => setTimeout(r, 20));
  process.stdout.write(JSON.stringify({ sessions: sessions.map((s) => ({ id: s.sessionId, trace: s.trace })) }) + '\n');
}

void main().catch((err) => {
  process.stderr.write(String((err as Error).stack ?? err));
  process.exit(1);
});
