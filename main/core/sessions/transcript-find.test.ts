import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../common/transcript/model';
import { findInTranscript, MAX_FIND_IDS, type FindSource } from './transcript-find';

function source(texts: string[]): FindSource & { windows: number } {
  const entries: Entry[] = texts.map((text, i) => ({ id: `e${i}`, t: i, turn: 1, kind: 'agent_message', content: [{ type: 'text', text }] }));
  const s = {
    windows: 0,
    entryCount: entries.length,
    window(offset: number, limit: number) {
      s.windows++;
      return entries.slice(offset, offset + limit);
    },
  };
  return s;
}

describe('findInTranscript', () => {
  it('lists the matching entries in order, ignoring case and the spaces around the words', async () => {
    const s = source(['alpha Pelican', 'beta', 'PELICAN gamma', 'delta']);
    expect(await findInTranscript(s, '  pelican ')).toEqual({ ids: ['e0', 'e2'], total: 2, searched: 4 });
    expect(await findInTranscript(s, 'nowhere')).toEqual({ ids: [], total: 0, searched: 4 });
  });

  it('reads nothing for an empty query', async () => {
    const s = source(['a', 'b']);
    expect(await findInTranscript(s, '   ')).toEqual({ ids: [], total: 0, searched: 2 });
    expect(s.windows).toBe(0);
  });

  it('reads in windows and lets other work run between them', async () => {
    const s = source(Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? 'hit' : 'miss')));
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const found = await findInTranscript(s, 'hit', { yieldEvery: 4 });
    expect(found.ids).toEqual(['e0', 'e3', 'e6', 'e9']);
    expect(s.windows).toBe(3);
    expect(ranBetween).toBe(true);
  });

  it('counts every match but lists at most the first MAX_FIND_IDS', async () => {
    const s = source(Array.from({ length: MAX_FIND_IDS + 7 }, () => 'hit'));
    const found = await findInTranscript(s, 'hit');
    expect(found.total).toBe(MAX_FIND_IDS + 7);
    expect(found.ids).toHaveLength(MAX_FIND_IDS);
    expect(found.ids.at(-1)).toBe(`e${MAX_FIND_IDS - 1}`);
  });
});
