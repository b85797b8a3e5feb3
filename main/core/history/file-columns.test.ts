import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSessions } from '../../../bench/generate-sessions';
import type { FileCard } from './cards';
import { decodeFiles, encodeFiles } from './file-columns';
import type { IndexedFile } from './history-index';
import { indexedFiles } from './testing/indexed-files';

const FIXTURES = resolve(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'traces');

const card = (over: Partial<FileCard> = {}): FileCard => ({ connectionId: 'c', startedAtMs: 0, agent: { label: 'agent' }, sessions: [], ...over });
const file = (over: Partial<IndexedFile> = {}): IndexedFile => ({
  size: 10,
  mtimeMs: 1796212079866.8237,
  ino: 42,
  position: 8,
  lines: 2,
  torn: false,
  settled: false,
  imported: false,
  corruptLines: 0,
  card: card(),
  detailAt: [0, 5],
  ...over,
});

describe('the files table as columns (index version 4)', () => {
  it('gives back the objects of the recorded fixtures and of generated sessions, field for field', async () => {
    for (const files of [
      await indexedFiles((traces) => cpSync(FIXTURES, traces, { recursive: true })),
      await indexedFiles((traces) => generateSessions({ dir: traces, count: 40, seed: 11, sizeScale: 0.05 })),
    ]) {
      expect(Object.keys(files).length).toBeGreaterThan(10);
      const columns = JSON.parse(JSON.stringify(encodeFiles(files))) as ReturnType<typeof encodeFiles>;
      const back = decodeFiles(columns);
      expect(back).toStrictEqual(files);
      expect(Object.keys(back)).toEqual(Object.keys(files));
      // The agent shows as JSON: its keys in the same order.
      for (const name of Object.keys(files)) expect(JSON.stringify(back[name]!.card)).toBe(JSON.stringify(files[name]!.card));
    }
  });

  it('keeps what is absent absent and every variant of each field', () => {
    const files: Record<string, IndexedFile> = {
      'a.jsonl': file(),
      'b.jsonl': file({
        torn: true,
        settled: true,
        corruptLines: 3,
        detailAt: [5, 1000],
        card: card({
          connectionId: 'b',
          startedAtMs: 1767225600000,
          agent: { id: 'codex-acp', label: 'Codex', name: 'codex-acp', version: '0.6.1' },
          launchCwd: '/home/ada/çà',
          ended: 'normally',
          pid: 4242,
          sessions: [
            { id: 'S1', firstT: 0.5, lastT: 93148.663, turns: 3, files: 0 },
            { id: 'S2', firstT: 1, lastT: 2, turns: 0, files: 2, agentSessionId: 'x-1', opened: 'forked', cwd: '/home/ada/çà', meta: true },
          ],
        }),
      }),
      'imp-c.2.jsonl': file({ imported: true, card: card({ connectionId: 'imp-c', ended: 'crashed', pid: 0 }) }),
      'd.jsonl': file({ card: card({ connectionId: 'another', ended: 'not-started', agent: { label: 'Codex', id: 'codex-acp', name: 'codex-acp', version: '0.6.1' } }) }),
      'e.jsonl': file({ card: card({ connectionId: 'e', agent: { id: 'codex-acp', label: 'Codex', name: 'codex-acp', version: '0.6.1' }, sessions: [{ id: 'S3', firstT: 0, lastT: 0, turns: 0, files: 0, agentSessionId: '', opened: 'loaded', cwd: '' }] }) }),
    };
    const columns = encodeFiles(files);
    // What repeats is written once: the connection id that is the file's name, equal agents and strings.
    expect(columns.connectionId).toEqual(['c', 0, 0, 'another', 0]);
    expect(columns.agents).toHaveLength(3);
    expect(columns.strings).toEqual(['/home/ada/çà', 'forked', 'loaded', '']);
    const back = decodeFiles(JSON.parse(JSON.stringify(columns)) as typeof columns);
    expect(back).toStrictEqual(files);
    // Keys in the order cards.ts's cardOf writes them (the order above).
    for (const name of Object.keys(files)) expect(JSON.stringify(back[name])).toBe(JSON.stringify(files[name]));
  });

  it('refuses columns that do not fit together', () => {
    const columns = encodeFiles({ 'a.jsonl': file({ card: card({ sessions: [{ id: 'S', firstT: 0, lastT: 1, turns: 1, files: 0 }] }) }), 'b.jsonl': file() });
    const broken = (change: (c: Record<string, unknown[]>) => void) => {
      const c = JSON.parse(JSON.stringify(columns)) as Record<string, unknown[]>;
      change(c);
      return () => decodeFiles(c as unknown as typeof columns);
    };
    expect(broken(() => undefined)).not.toThrow();
    expect(broken((c) => c.size!.pop())).toThrow(/size/);
    expect(broken((c) => c.detailAt!.pop())).toThrow(/detailAt/);
    expect(broken((c) => c.lastT!.pop())).toThrow(/lastT/);
    expect(broken((c) => (c.sessions![0] = 2))).toThrow(/cut short/);
    expect(broken((c) => (c.sessions![0] = 0))).toThrow(/too long/);
    expect(broken((c) => (c.agent![1] = 7))).toThrow(/agent/);
    expect(broken((c) => (c.ended![0] = 9))).toThrow(/ending/);
    expect(broken((c) => delete c.names)).toThrow(/missing/);
  });

  it('needs every detail in the side file', () => {
    expect(() => encodeFiles({ 'a.jsonl': file({ detailAt: null }) })).toThrow(/side file/);
  });
});

