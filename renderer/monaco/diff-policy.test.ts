import { describe, expect, it } from 'vitest';
import { countLines, describeHugeDiff, displayPath, hugeDiffReason, resolveMonacoTheme } from './diff-policy';

describe('the huge-file fallback decision', () => {
  it('lets ordinary files into the Monaco diff editor', () => {
    expect(hugeDiffReason('a\nb\n', 'a\nc\n')).toBeNull();
    expect(hugeDiffReason(null, 'new file\n')).toBeNull();
    expect(hugeDiffReason(undefined, '')).toBeNull();
  });

  it('falls back above 2 MB on either side', () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 1);
    expect(hugeDiffReason(big, 'small')).toEqual({ reason: 'size', chars: big.length });
    expect(hugeDiffReason('small', big)).toEqual({ reason: 'size', chars: big.length });
    expect(hugeDiffReason('x'.repeat(2 * 1024 * 1024), '')).toBeNull();
  });

  it('falls back above 50,000 lines on either side, even when small in bytes', () => {
    const manyLines = '\n'.repeat(50_001);
    expect(hugeDiffReason('', manyLines)).toEqual({ reason: 'lines', lines: 50_001 });
    expect(hugeDiffReason('a\n'.repeat(50_000), 'a\n'.repeat(50_000))).toBeNull();
    expect(hugeDiffReason('a\n'.repeat(50_001), '')?.reason).toBe('lines');
  });

  it('takes custom limits and says why in words', () => {
    expect(hugeDiffReason('abc', 'abcd', { chars: 3, lines: 10 })).toEqual({ reason: 'size', chars: 4 });
    expect(describeHugeDiff({ reason: 'size', chars: 3 * 1024 * 1024 })).toContain('3.0 MB');
    expect(describeHugeDiff({ reason: 'lines', lines: 60_000 })).toContain('60,000+ lines');
  });

  it('counts lines like an editor (a final newline does not start a line) and stops early', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('\n\n')).toBe(2);
    expect(countLines('a\n'.repeat(1000), 10)).toBe(10);
  });
});

describe('the Monaco theme', () => {
  it('follows data-theme when set, else the OS scheme', () => {
    expect(resolveMonacoTheme('light', true)).toBe('vs');
    expect(resolveMonacoTheme('dark', false)).toBe('vs-dark');
    expect(resolveMonacoTheme(undefined, true)).toBe('vs-dark');
    expect(resolveMonacoTheme('system', false)).toBe('vs');
  });
});

describe('paths', () => {
  it('shows a path relative to the session folder when inside it', () => {
    expect(displayPath('/tmp/proj/src/a.ts', '/tmp/proj')).toBe('src/a.ts');
    expect(displayPath('/tmp/proj/src/a.ts', '/tmp/proj/')).toBe('src/a.ts');
    expect(displayPath('/tmp/project2/a.ts', '/tmp/proj')).toBe('/tmp/project2/a.ts');
    expect(displayPath('C:\\w\\a.ts', 'C:\\w')).toBe('a.ts');
    expect(displayPath('/a', undefined)).toBe('/a');
  });
});
