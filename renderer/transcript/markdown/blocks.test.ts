import { describe, expect, it } from 'vitest';
import { advanceBlocks, allBlocks, GROUP_SIZE, splitBlocks, type BlockSplit } from './blocks';

const texts = (s: string) => splitBlocks(s).map((b) => b.text.trimEnd());

describe('markdown block splitter', () => {
  it('splits paragraphs at blank lines and keeps fenced code whole', () => {
    const md = 'Hello\nworld\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\nAfter fence\n\n# Title';
    expect(texts(md)).toEqual(['Hello\nworld', '```ts\nconst a = 1;\n\nconst b = 2;\n```', 'After fence', '# Title']);
    const fence = splitBlocks(md)[1]!.fence!;
    expect(fence).toEqual({ lang: 'ts', body: 'const a = 1;\n\nconst b = 2;', closed: true });
  });

  it('keeps loose lists and indented continuations in one block', () => {
    expect(texts('- a\n\n- b\n\n  more of b\n\nnext')).toEqual(['- a\n\n- b\n\n  more of b', 'next']);
    expect(texts('1. one\n\n2. two')).toEqual(['1. one\n\n2. two']);
    const nested = '- item\n\n  ```py\n  x = 1\n\n  y = 2\n  ```\n- next\n\nafter';
    expect(texts(nested)).toEqual(['- item\n\n  ```py\n  x = 1\n\n  y = 2\n  ```\n- next', 'after']);
    expect(splitBlocks(nested)[0]!.fence).toBeUndefined();
  });

  it('lets a fence interrupt a paragraph and accepts ~~~ and longer fences', () => {
    expect(texts('text\n~~~~\na\n~~~\n~~~~\nend')).toEqual(['text', '~~~~\na\n~~~\n~~~~', 'end']);
  });

  it('reports an unclosed fence as open, with the body so far', () => {
    const [b] = splitBlocks('```py\nprint(1)\nprint(2');
    expect(b!.fence).toEqual({ lang: 'py', body: 'print(1)\nprint(2', closed: false });
  });

  it('does not treat ``` with a backtick in the info string as a fence', () => {
    expect(splitBlocks('```a`b\nx')[0]!.fence).toBeUndefined();
  });

  it('gives the same blocks incrementally as in one go, for every chunking', () => {
    const md = [
      'Intro paragraph with **bold**.',
      '',
      '```js',
      'function f() {',
      '',
      '  return 1;',
      '}',
      '```',
      '',
      '- item one',
      '',
      '- item two',
      '',
      '> quote',
      '',
      'Final words.',
    ].join('\n');
    const whole = splitBlocks(md).map((b) => [b.key, b.text, b.fence?.closed]);
    for (const step of [1, 2, 3, 7, 13]) {
      let split: BlockSplit | undefined;
      for (let i = step; i < md.length + step; i += step) split = advanceBlocks(split, md.slice(0, Math.min(i, md.length)));
      expect(allBlocks(split!).map((b) => [b.key, b.text, b.fence?.closed])).toEqual(whole);
    }
  });

  it('keeps settled blocks and full groups by identity while the tail grows', () => {
    let text = '';
    let split: BlockSplit | undefined;
    for (let i = 0; i < GROUP_SIZE * 2 + 5; i++) {
      text += `para ${i}\n\n`;
      split = advanceBlocks(split, text);
    }
    const before = split!;
    const after = advanceBlocks(before, `${text}tail grows`);
    expect(after.groups[0]).toBe(before.groups[0]);
    expect(after.groups[1]).toBe(before.groups[1]);
    // The old tail ("para N") settled unchanged and kept its identity.
    expect(allBlocks(after).at(-2)).toBe(before.tail);
    expect(after.tail!.text).toBe('tail grows');
    expect(advanceBlocks(after, after.source)).toBe(after);
  });

  it('re-splits from scratch when the text is not an extension', () => {
    const a = advanceBlocks(undefined, 'one\n\ntwo');
    const b = advanceBlocks(a, 'uno\n\ndos\n\ntres');
    expect(allBlocks(b).map((x) => x.text.trimEnd())).toEqual(['uno', 'dos', 'tres']);
  });

  it('scans only the tail on each chunk (no work proportional to the message)', () => {
    // The first chunk settles the last "x" paragraph and opens the streamed one.
    let text = 'x\n\n'.repeat(20_000) + 'word ';
    let split = advanceBlocks(advanceBlocks(undefined, 'x\n\n'.repeat(20_000)), text);
    const settled = split.groups;
    const tailStart = split.tailStart;
    expect(tailStart).toBe(60_000);
    for (let i = 0; i < 2000; i++) {
      text += 'word ';
      split = advanceBlocks(split, text);
      // Each chunk re-scans from the tail's start only, and the settled blocks are the very same
      // objects: nothing before the tail is split or built again (a structural check, not a timing).
      expect(split.tailStart).toBe(tailStart);
      expect(split.groups.length).toBe(settled.length);
      for (let g = 0; g < settled.length; g += 97) expect(split.groups[g]).toBe(settled[g]);
      expect(split.groups[settled.length - 1]).toBe(settled[settled.length - 1]);
    }
    expect(split.tail!.text.startsWith('word')).toBe(true);
  });
});
