import { describe, expect, it } from 'vitest';
import type { ComparedAgentView, FileChangeStatView } from '../../common/api/compare-types';
import { defaultDiffPath, fileRows, formatMs, kindsText, pickedFiles, togglePick, usageText, verifyText } from './figures';

const file = (path: string, newId: string, added = 1, removed = 0): FileChangeStatView => ({ path, status: 'M', added, removed, binary: false, oldId: 'o', newId, newMode: '100644' });
const agent = (files: FileChangeStatView[], extra: Partial<ComparedAgentView> = {}) => ({ filesChanged: files, ...extra }) as ComparedAgentView;

describe('figures', () => {
  it('formats durations, kinds and usage', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(42.4)).toBe('42 ms');
    expect(formatMs(1530)).toBe('1.5 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
    expect(kindsText({ read: 1, edit: 2, execute: 1 })).toBe('edit 2, execute 1, read 1');
    expect(usageText(null)).toBeNull();
    expect(usageText({ used: 1200, cost: { amount: 0.05, currency: 'USD' } })).toBe('1,200 tokens · 0.05 USD');
    expect(usageText({ size: 5 })).toBeNull();
  });

  it('says how verification went', () => {
    const r = { command: 'npm test', exitCode: 0, signal: null, timedOut: false, durationMs: 1, output: '', truncated: false };
    expect(verifyText(agent([], { verify: r })).state).toBe('passed');
    expect(verifyText(agent([], { verify: { ...r, exitCode: 1 } })).text).toBe('failed (exit 1)');
    expect(verifyText(agent([], { verify: { ...r, exitCode: null, timedOut: true } })).text).toBe('timed out');
    expect(verifyText(agent([], { verify: null })).state).toBe('none');
  });

  it('lays files out per agent and marks those changed differently', () => {
    const rows = fileRows({
      agents: [agent([file('a.txt', '1'), file('shared.txt', 'x')]), agent([file('shared.txt', 'y'), file('same.txt', 's')]), agent([file('same.txt', 's')])],
      divergentFiles: [{ path: 'shared.txt', agents: [] }],
    });
    expect(rows.map((r) => [r.path, r.cells.map((c) => (c ? c.newId : null)), r.divergent, r.shared])).toEqual([
      ['a.txt', ['1', null, null], false, false],
      ['same.txt', [null, 's', 's'], false, true],
      ['shared.txt', ['x', 'y', null], true, true],
    ]);
    expect(defaultDiffPath(rows)).toBe('shared.txt');
    expect(defaultDiffPath([])).toBeNull();
  });

  it('picks one agent per path, toggling', () => {
    let picks = togglePick({}, 'a.txt', 0);
    picks = togglePick(picks, 'shared.txt', 1);
    picks = togglePick(picks, 'shared.txt', 2);
    expect(pickedFiles(picks)).toEqual([
      { agentIndex: 0, path: 'a.txt' },
      { agentIndex: 2, path: 'shared.txt' },
    ]);
    expect(pickedFiles(togglePick(picks, 'a.txt', 0))).toEqual([{ agentIndex: 2, path: 'shared.txt' }]);
  });
});
