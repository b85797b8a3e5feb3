import { describe, expect, it } from 'vitest';
import { joinShellWords, splitShellWords } from './shell-words';

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

describe('joinShellWords', () => {
  it('quotes only the words that need it, and splits back into the same words', () => {
    expect(joinShellWords(['node', '/opt/agent.js', '--acp', 'model=x'])).toBe('node /opt/agent.js --acp model=x');
    const words = ['my agent', "it's", '', 'a"b', '$HOME', 'back\\slash', 'tab\there', 'ünï'];
    expect(splitShellWords(joinShellWords(words))).toEqual(words);
  });
});
