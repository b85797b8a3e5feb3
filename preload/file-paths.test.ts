import { describe, expect, it } from 'vitest';
import { createFilePaths } from './file-paths';

describe('createFilePaths', () => {
  const file = new File(['x'], 'a.log');
  it('gives the path Electron knows, and null for a file with none or an error', () => {
    expect(createFilePaths({ getPathForFile: () => '/home/ada/a.log' }).pathOf(file)).toBe('/home/ada/a.log');
    expect(createFilePaths({ getPathForFile: () => '' }).pathOf(file)).toBeNull();
    expect(
      createFilePaths({
        getPathForFile: () => {
          throw new TypeError('not a File');
        },
      }).pathOf(file),
    ).toBeNull();
  });
});
