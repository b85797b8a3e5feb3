import { describe, expect, it } from 'vitest';
import { recentFolders } from './FolderInput';

describe('recentFolders', () => {
  it('keeps the first of each folder in order, skips sessions without one, and stops at 8', () => {
    expect(recentFolders(['/a', undefined, '/b', '/a', '', '/c'])).toEqual(['/a', '/b', '/c']);
    expect(recentFolders(Array.from({ length: 20 }, (_, i) => `/p${i}`))).toHaveLength(8);
  });
});
