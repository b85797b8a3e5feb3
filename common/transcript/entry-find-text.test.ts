import { describe, expect, it } from 'vitest';
import { entryFindText, entryMatches } from './entry-find-text';
import type { Entry } from './model';

const base = { t: 0, turn: 1 };

describe('entryFindText', () => {
  it('holds what a row shows: message text, tool titles, paths, outputs and both sides of a diff', () => {
    const tool: Entry = {
      ...base,
      id: 't',
      kind: 'tool_call',
      toolCallId: 'c1',
      title: 'Edit parser.ts',
      toolKind: 'edit',
      status: 'completed',
      locations: [{ path: '/p/src/parser.ts' }],
      content: [
        { type: 'content', content: { type: 'text', text: 'Tests: 12 passed' } },
        { type: 'diff', path: '/p/src/parser.ts', oldText: 'const OLD_NAME = 1;', newText: 'const NEW_NAME = 1;' },
        { type: 'terminal', terminalId: 'term-9' },
      ],
      rawInput: { secretField: 'not shown as text' },
      permissions: [],
    };
    const text = entryFindText(tool);
    for (const words of ['Edit parser.ts', '/p/src/parser.ts', 'Tests: 12 passed', 'OLD_NAME', 'NEW_NAME']) expect(text).toContain(words);
    expect(text).not.toContain('secretField');
    expect(text).not.toContain('term-9');
    const message: Entry = { ...base, id: 'm', kind: 'agent_message', content: [{ type: 'text', text: 'The **pelican** flies' }, { type: 'resource_link', uri: 'file:///p/notes.md', name: 'notes.md' }] };
    expect(entryFindText(message)).toContain('pelican');
    expect(entryFindText(message)).toContain('file:///p/notes.md');
    const plan: Entry = { ...base, id: 'p', kind: 'plan', entries: [{ content: 'Run the tests', priority: 'high', status: 'pending' }] };
    expect(entryFindText(plan)).toBe('Run the tests');
    const error: Entry = { ...base, id: 'e', kind: 'error', message: 'Agent exited', source: 'exit', stderrTail: ['panic: out of cheese'] };
    expect(entryFindText(error)).toContain('out of cheese');
  });

  it('matches regardless of case, and an empty query matches nothing', () => {
    const e: Entry = { ...base, id: 'u', kind: 'user_message', content: [{ type: 'text', text: 'Remember the Pelican' }] };
    expect(entryMatches(e, 'pelican')).toBe(true);
    expect(entryMatches(e, 'remember the')).toBe(true);
    expect(entryMatches(e, 'albatross')).toBe(false);
    expect(entryMatches(e, '')).toBe(false);
  });
});
