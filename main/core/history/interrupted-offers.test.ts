import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistorySessionView } from '../../../common/api/history-types';
import { dismiss, dismissedPath, OFFER_WINDOW_MS, readDismissed, sessionsToOffer } from './interrupted-offers';

const NOW = Date.UTC(2026, 11, 3, 12);
const session = (id: string, over: Partial<HistorySessionView> = {}): HistorySessionView =>
  ({ id, origin: 'workbench', agent: { id: 'a', label: 'A' }, title: id, tags: [], createdMs: NOW - 60_000, updatedMs: NOW - 30_000, turns: 1, status: 'interrupted', filesChanged: 0, ...over }) as HistorySessionView;

describe('sessionsToOffer', () => {
  it('offers recent interrupted sessions of the workbench, not those ended, old, dismissed, listed by an agent or resumed since', () => {
    const recent = [
      session('resumed-child', { status: 'ended', lineage: { parentSessionId: 'resumed', relation: 'resume' } }),
      session('forked-child', { status: 'ended', lineage: { parentSessionId: 'forked', relation: 'fork' } }),
      session('cut'),
      session('ended', { status: 'ended' }),
      session('running', { status: 'running' }),
      session('old', { updatedMs: NOW - OFFER_WINDOW_MS - 1 }),
      session('dismissed'),
      session('agent-side', { origin: 'agent' }),
      session('resumed'),
      session('forked'),
    ];
    expect(sessionsToOffer(recent, new Set(['dismissed']), NOW).map((s) => s.id)).toEqual(['cut', 'forked']);
  });
});

describe('dismissals', () => {
  it('are kept across reads, added to, and a missing or damaged file means none', async () => {
    const path = dismissedPath(join(mkdtempSync(join(tmpdir(), 'acpwb-dismissed-')), 'history'));
    expect(await readDismissed(path)).toEqual(new Set());
    await dismiss(path, ['a', 'b']);
    await dismiss(path, ['b', 'c']);
    expect(await readDismissed(path)).toEqual(new Set(['a', 'b', 'c']));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['a', 'b', 'c']);
    writeFileSync(path, '{"torn');
    expect(await readDismissed(path)).toEqual(new Set());
    await dismiss(path, ['d']);
    expect(await readDismissed(path)).toEqual(new Set(['d']));
  });
});
