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
import type { SpillFile } from './spill-file';

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
    // Windows taken while the flood runs (the trace writer still holds its latest lines): entries
    // but the last few are final by then, and must read back as the rebuild has them.
    const early: Array<{ offset: number; items: unknown[] }> = [];
    let batches = 0;
    let sessionId = '';
    const manager: SessionManager = new SessionManager({
      paths: { dataDir, configDir: join(base, 'config') },
      host: 'test',
      emit: (name) => {
        if (name !== 'session/patches' || !sessionId || ++batches % 5 !== 0) return;
        const count = manager.qaOf(sessionId).session.live.entryCount;
        const offset = Math.max(0, count - 60);
        if (count > 20) early.push({ offset, items: manager.entries(sessionId, offset, count - 10 - offset).items });
      },
    });
    cleanups.push(() => manager.dispose());
    ({ sessionId } = await manager.start({ agent: { command: process.execPath, args: [FLOOD_AGENT, '--n', '3000', '--diff-bytes', '4096'], label: 'flood' }, cwd: base, policy: 'all' }));
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
    expect(early.length).toBeGreaterThan(1);
    for (const w of early) expect(w.items).toEqual(expected.slice(w.offset, w.offset + w.items.length));

    // The cold tool calls' diff texts were not written to the spill file: they are read from the trace.
    const spill = (live as unknown as { options: { cold: SpillFile } }).options.cold;
    let coldJson = 0;
    let coldDiffs = 0;
    expected.forEach((entry) => {
      coldJson += Buffer.byteLength(JSON.stringify(entry));
      if (entry.kind === 'tool_call') for (const c of entry.content) if (c.type === 'diff') coldDiffs += c.oldText!.length + c.newText.length;
    });
    expect(coldDiffs).toBeGreaterThan(100 * 4000);
    expect(spill.size).toBeLessThan(coldJson - 0.9 * coldDiffs);

    await manager.close(sessionId);
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });
});
