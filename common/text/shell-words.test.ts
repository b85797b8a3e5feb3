import { describe, expect, it } from 'vitest';
import { splitShellWords } from './shell-words';

describe('splitShellWords', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(splitShellWords('node agent.js --x "a b" \'c d\' e\\ f')).toEqual(['node', 'agent.js', '--x', 'a b', 'c d', 'e f']);
    expect(splitShellWords('  "" x ')).toEqual(['', 'x']);
    expect(splitShellWords('"say \\"hi\\""')).toEqual(['say "hi"']);
    expect(splitShellWords("'$HOME' \"$HOME\"")).toEqual(['$HOME', '$HOME']);
  });
  it('refuses an unterminated quote', () => {
    expect(() => splitShellWords('node "x')).toThrow('unterminated');
  });
});
