import { describe, expect, it } from 'vitest';
import { baseName } from './base-name';

describe('baseName', () => {
  it('is the last segment with either separator, a trailing one ignored', () => {
    expect(baseName('/tmp/proj/hello.txt')).toBe('hello.txt');
    expect(baseName('C:\\w\\x.rs')).toBe('x.rs');
    expect(baseName('/home/ada/project/')).toBe('project');
    expect(baseName('plain')).toBe('plain');
    expect(baseName('/')).toBe('/');
  });
});
