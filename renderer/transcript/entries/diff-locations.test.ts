import { describe, expect, it } from 'vitest';
import type { ToolCallContent } from '../../../common/transcript/acp-types';
import { diffLocations } from './diff-locations';

const diff = (path: string): ToolCallContent => ({ type: 'diff', path, oldText: 'a', newText: 'b' });
const text: ToolCallContent = { type: 'content', content: { type: 'text', text: 'ok' } };

describe('diffLocations', () => {
  it('shows a line-less location once, in the head of the diff with its path', () => {
    const r = diffLocations([{ path: '/p/a.ts' }], [diff('/p/a.ts')]);
    expect(r.apart).toEqual([]);
    expect(r.inDiff.get('/p/a.ts')).toEqual({ path: '/p/a.ts' });
  });

  it('keeps locations no diff names, and those with a line (the line says more than the diff head)', () => {
    const r = diffLocations([{ path: '/p/a.ts', line: 3 }, { path: '/p/b.ts' }], [diff('/p/a.ts'), text]);
    expect(r.apart).toEqual([{ path: '/p/a.ts', line: 3 }, { path: '/p/b.ts' }]);
    expect(r.inDiff.size).toBe(0);
  });

  it('drops a repeated line-less location of a diff path, keeps order of the rest', () => {
    const r = diffLocations([{ path: '/p/c.ts' }, { path: '/p/a.ts' }, { path: '/p/a.ts' }, { path: '/p/b.ts' }], [diff('/p/a.ts'), diff('/p/b.ts')]);
    expect(r.apart).toEqual([{ path: '/p/c.ts' }]);
    expect([...r.inDiff.keys()]).toEqual(['/p/a.ts', '/p/b.ts']);
  });

  it('changes nothing for a call without diffs', () => {
    const locations = [{ path: '/p/a.ts' }, { path: '/p/b.ts', line: 1 }];
    const r = diffLocations(locations, [text]);
    expect(r.apart).toEqual(locations);
    expect(r.inDiff.size).toBe(0);
  });
});
