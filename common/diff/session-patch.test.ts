import { describe, expect, it } from 'vitest';
import { patchPath, rootedPatchPath, sessionPatch } from './session-patch';

describe('the path a patch names a file by', () => {
  it('is relative to the session’s folder, with / separators', () => {
    expect(patchPath('/p/proj/src/a.ts', '/p/proj')).toBe('src/a.ts');
    expect(patchPath('/p/proj/a.ts', '/p/proj/')).toBe('a.ts');
    expect(patchPath('C:\\work\\proj\\src\\a.ts', 'C:\\work\\proj')).toBe('src/a.ts');
  });
  it('is null outside the folder (a sibling that shares its prefix too, a way out through ..), for the folder itself, and with no folder', () => {
    expect(patchPath('/p/project-other/a.ts', '/p/proj')).toBeNull();
    expect(patchPath('/etc/passwd', '/p/proj')).toBeNull();
    expect(patchPath('/p/proj/../secret', '/p/proj')).toBeNull();
    expect(patchPath('/p/proj', '/p/proj')).toBeNull();
    expect(patchPath('/p/proj/a.ts', undefined)).toBeNull();
  });
  it('outside the folder: from the root, no leading slash or drive colon', () => {
    expect(rootedPatchPath('/etc/hosts')).toBe('etc/hosts');
    expect(rootedPatchPath('C:\\Users\\me\\a.txt')).toBe('C/Users/me/a.txt');
  });
});

describe('a session’s patch', () => {
  it('joins each file’s patch, named inside the folder or from the root', () => {
    const files = [
      { path: '/p/proj/a.txt', oldText: 'one\n', newText: 'two\n', exact: true, writes: 1, failed: 0 },
      { path: '/tmp/b.txt', oldText: null, newText: 'b\n', exact: true, writes: 1, failed: 0 },
      { path: '/p/proj/same.txt', oldText: 'x\n', newText: 'x\n', exact: true, writes: 1, failed: 0 },
    ];
    expect(sessionPatch(files, '/p/proj')).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two\n--- /dev/null\n+++ b/tmp/b.txt\n@@ -0,0 +1,1 @@\n+b\n');
  });
});
