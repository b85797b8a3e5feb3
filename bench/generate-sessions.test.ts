import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTraceText } from '../common/trace/parse';
import { listTraceSessions } from '../common/trace/sessions';
import { HistoryStore } from '../main/core/history/history-store';
import { createRng, generateSessions, generateTrace, sizeForQuantile } from './generate-sessions';

describe('the session generator', () => {
  it('aims at the size distribution of real histories', () => {
    const sizes = Array.from({ length: 1000 }, (_, i) => sizeForQuantile((i + 0.5) / 1000));
    const over = (n: number) => sizes.filter((s) => s > n).length / sizes.length;
    expect(sizes[500]).toBeGreaterThan(15_000);
    expect(sizes[500]).toBeLessThan(30_000);
    expect(over(290_000)).toBeCloseTo(0.1, 2);
    expect(over(3_000_000)).toBeGreaterThanOrEqual(0.01);
    // What comes out is close to the target (small traces a little over: a turn's envelopes).
    const rng = createRng(3);
    const ratios = Array.from({ length: 41 }, () => generateTrace(rng, Date.UTC(2026, 0, 1), 30_000, 1, []).text.length / 30_000).sort((a, b) => a - b);
    expect(ratios[20]).toBeGreaterThan(0.95);
    expect(ratios[20]).toBeLessThan(1.4);
  });

  it('writes valid traces, deterministically for a seed, with planted words where asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acpwb-gen-'));
    const traces = join(dir, 'traces');
    const options = { dir: traces, count: 12, seed: 5, sizeScale: 0.05, twoSessionsEvery: 4, plant: [{ session: 3, where: 'tool-output' as const, word: 'zebrafinch' }] };
    const out = generateSessions(options);
    expect(out.flatMap((t) => t.sessions)).toHaveLength(12);
    expect(out.filter((t) => t.sessions.length === 2)).toHaveLength(2);
    for (const t of out) {
      const parsed = parseTraceText(readFileSync(join(traces, t.file), 'utf8'));
      expect(parsed.corrupt).toEqual([]);
      expect(parsed.header?.connectionId).toBe(t.file.replace('.jsonl', ''));
      expect(listTraceSessions(parsed.records).map((s) => s.sessionId)).toEqual(t.sessions.map((s) => s.sessionId));
    }
    const again = generateSessions({ ...options, dir: join(dir, 'again') });
    expect(again.map((t) => t.bytes)).toEqual(out.map((t) => t.bytes));

    const store = await HistoryStore.open(dir, { alive: () => false });
    expect(store.size).toBe(12);
    const hit = await store.search('zebrafinch');
    expect(hit.hits.map((h) => [h.entry.id, h.fields])).toEqual([[out.flatMap((t) => t.sessions)[3]!.sessionId, ['tool']]]);
    await store.close();
  });
});
