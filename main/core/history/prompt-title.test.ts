import { describe, expect, it } from 'vitest';
import { PROMPT_TITLE_CHARS, promptTitle } from './prompt-title';
import { primerMeta } from './continue/primer-marker';

describe('promptTitle', () => {
  it("joins a prompt's text blocks into one line, without attachments", () => {
    expect(promptTitle([{ type: 'text', text: ' Fix\n the  bug ' }, { type: 'image', data: 'x', mimeType: 'image/png' }, { type: 'text', text: 'now' }])).toBe('Fix the bug now');
  });

  it('has no title for a prompt without words, or for something that is not a prompt', () => {
    expect(promptTitle([{ type: 'resource_link', uri: 'file:///a', name: 'a' }])).toBeUndefined();
    expect(promptTitle([{ type: 'text', text: '  \n ' }])).toBeUndefined();
    expect(promptTitle(undefined)).toBeUndefined();
    expect(promptTitle('text')).toBeUndefined();
  });

  it('cuts a long prompt with an ellipsis', () => {
    const title = promptTitle([{ type: 'text', text: 'word '.repeat(100) }])!;
    expect(title).toHaveLength(PROMPT_TITLE_CHARS);
    expect(title.endsWith('…')).toBe(true);
  });

  it("leaves out the primer the workbench adds to a continued session's first prompt", () => {
    expect(promptTitle([{ type: 'text', text: 'Earlier in this conversation…', _meta: primerMeta }, { type: 'text', text: 'go on' }])).toBe('go on');
  });
});
