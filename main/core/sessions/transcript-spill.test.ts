/**
 * A live session keeps only its recent entries in memory: the rest of its transcript is in the
 * spill file, yet every window the UI asks for is the transcript a rebuild from the trace gives,
 * and closing the session leaves no file behind. Real flood agent (bench/flood-agent.mjs, the
 * benchmarks' agent: message chunks and tool calls with ~16 KiB diffs) over real stdio.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordsForSession } from '../../../common/trace/sessions';
import { rebuildTranscript } from '../../../common/transcript/rebuild';
import { entryList } from '../../../common/transcript/model';
import { filesChanged } from './session-stats';
import { readTraceFile } from '../history/trace-reader';
import { SessionManager } from './session-manager';

const FLOOD_AGENT = join(__dirname, '..', '..', '..', 'bench', 'flood-agent.mjs');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('live transcript spilled to disk', () => {
  it('serves windows equal to the rebuilt transcript while most entries are cold, and deletes the file on close', async () => {
    const base = mkdtempSync(join(tmpdir(), 'acpwb-spill-session-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const dataDir = join(base, 'data');
    const manager = new SessionManager({ paths: { dataDir, configDir: join(base, 'config') }, host: 'test', emit: () => undefined });
    cleanups.push(() => manager.dispose());
    const { sessionId } = await manager.start({ agent: { command: process.execPath, args: [FLOOD_AGENT, '--n', '3000', '--diff-bytes', '4096'], label: 'flood' }, cwd: base, policy: 'all' });
    expect(await manager.prompt(sessionId, [{ type: 'text', text: 'go' }])).toEqual({ stopReason: 'end_turn' });

    const { session } = manager.qaOf(sessionId);
    const live = session.live;
    // 3000 updates: 150 tool calls and the messages between them. At most 64 stay in memory, fewer
    // since the hot entries may only hold DEFAULT_HOT_WEIGHT of text (each tool call ~8 KiB of diff).
    expect(live.entryCount).toBeGreaterThan(300);
    const hot = live.entryCount - live.coldEntries;
    expect(hot).toBeGreaterThanOrEqual(4);
    expect(hot).toBeLessThan(32);

    await session.connection.trace.flush();
    const { records } = await readTraceFile(session.connection.trace.path);
    const rebuilt = rebuildTranscript(recordsForSession(records, sessionId));
    const expected = entryList(rebuilt);
    expect(expected.length).toBe(live.entryCount);
    const fetched = [];
    for (let offset = 0; offset < expected.length; offset += 97) {
      const window = manager.entries(sessionId, offset, 97);
      expect(window.total).toBe(expected.length);
      fetched.push(...window.items);
    }
    expect(fetched).toEqual(expected);
    expect(JSON.stringify(fetched)).toBe(JSON.stringify(expected));
    expect(manager.snapshot(sessionId).session).toEqual(rebuilt.session);
    expect(live.changedPaths()).toEqual(filesChanged(rebuilt));
    expect(live.changedPaths().length).toBe(150);

    await manager.close(sessionId);
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });
});
