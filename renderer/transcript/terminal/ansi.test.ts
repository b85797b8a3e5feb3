import { describe, expect, it } from 'vitest';
import { applySgr, parseAnsi, stripAnsi, tailStart, xterm256 } from './ansi';

describe('ANSI parser', () => {
  it('turns SGR colours and attributes into styled spans', () => {
    expect(parseAnsi('plain \x1b[31mred\x1b[0m \x1b[1;92mbold bright\x1b[22m not bold\x1b[m')).toEqual([
      { text: 'plain ' },
      { text: 'red', style: { fg: 1 } },
      { text: ' ' },
      { text: 'bold bright', style: { bold: true, fg: 10 } },
      { text: ' not bold', style: { fg: 10 } },
    ]);
  });

  it('supports 256 and true colours, backgrounds and resets of single attributes', () => {
    expect(applySgr({}, '38;5;196')).toEqual({ fg: 196 });
    expect(applySgr({}, '48;2;10;20;300')).toEqual({ bg: 'rgb(10, 20, 255)' });
    expect(applySgr({ fg: 3, underline: true }, '39;24')).toEqual({});
    expect(applySgr({}, '7;9;3;2')).toEqual({ inverse: true, strike: true, italic: true, dim: true });
    expect(xterm256(196)).toBe('rgb(255, 0, 0)');
    expect(xterm256(244)).toBe('rgb(128, 128, 128)');
  });

  it('drops other escape sequences and control characters', () => {
    const raw = '\x1b]0;title\x07\x1b[2K\x1b[1Gok\x1b[?25l\x07\x1b(B\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\ done\x00';
    expect(stripAnsi(raw)).toBe('oklink done');
  });

  it('lets a bare carriage return overwrite the current line', () => {
    expect(stripAnsi('first\n10%\r50%\r100%\nlast\r\n')).toBe('first\n100%\nlast\n');
    expect(stripAnsi('a\x1b[32mb\rc')).toBe('c');
  });

  it('ignores malformed colour parameters', () => {
    expect(parseAnsi('\x1b[38;5mx')).toEqual([{ text: 'x' }]);
    expect(parseAnsi('\x1b[38;9;1mx')).toEqual([{ text: 'x' }]);
  });

  it('finds the start of the last lines from the end', () => {
    const text = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n') + '\n';
    const t = tailStart(text, 3, 1000);
    expect(text.slice(t.start)).toBe('l7\nl8\nl9\n');
    expect(t.hiddenLines).toBe(true);
    expect(tailStart('a\nb', 5, 1000)).toEqual({ start: 0, hiddenLines: false });
    const c = tailStart('x'.repeat(50) + '\nshort\n', 10, 10);
    expect(c.hiddenLines).toBe(true);
    expect(c.start).toBe(51);
  });
});
