import { describe, expect, it } from 'vitest';
import { patchPath } from './diff';

describe('the path a patch names a file by', () => {
  it('is relative to the session’s folder, with / separators', () => {
    expect(patchPath('/p/proj/src/a.ts', '/p/proj')).toBe('src/a.ts');
    expect(patchPath('/p/proj/a.ts', '/p/proj/')).toBe('a.ts');
  });
  it('is null outside the folder (a sibling that shares its prefix too), for the folder itself, and with no folder', () => {
    expect(patchPath('/p/project-other/a.ts', '/p/proj')).toBeNull();
    expect(patchPath('/etc/passwd', '/p/proj')).toBeNull();
    expect(patchPath('/p/proj', '/p/proj')).toBeNull();
    expect(patchPath('/p/proj/a.ts', undefined)).toBeNull();
  });
});
