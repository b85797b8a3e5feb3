import { describe, expect, it } from 'vitest';
import type { Action } from '../palette/actions';
import { CONTEXT_SHORTCUTS, filterShortcuts, keyParts, shortcutGroups } from './keyboard-shortcuts';

const action = (id: string, title: string, keys?: string): Action => ({ id, title, ...(keys ? { keys } : {}), run: () => undefined });

describe('keyboard shortcuts', () => {
  it('lists the actions that have keys, in their order, before the places’ own keys', () => {
    const groups = shortcutGroups([action('a', 'New session…', 'Ctrl+N'), action('b', 'Agents…'), action('c', 'Go up', 'Alt+ArrowUp')]);
    expect(groups[0]).toEqual({
      title: 'Anywhere in the window',
      shortcuts: [
        { keys: ['Ctrl+N'], what: 'New session…' },
        { keys: ['Alt+ArrowUp'], what: 'Go up' },
      ],
    });
    expect(groups.slice(1)).toEqual(CONTEXT_SHORTCUTS);
  });

  it('makes one row of a numbered run of actions, and only of a run', () => {
    const focus = (n: number) => action(`pane.focus.${n}`, `Focus pane ${n}`, `Ctrl+${n}`);
    const groups = shortcutGroups([focus(1), focus(2), focus(3), action('x', 'Zoom 4', 'Ctrl+Shift+4'), focus(5), action('y', 'Step 7', 'Alt+7')]);
    expect(groups[0]!.shortcuts).toEqual([
      { keys: ['Ctrl+1', 'Ctrl+3'], what: 'Focus pane 1–3', range: true },
      { keys: ['Ctrl+Shift+4'], what: 'Zoom 4' },
      { keys: ['Ctrl+5'], what: 'Focus pane 5' },
      { keys: ['Alt+7'], what: 'Step 7' },
    ]);
  });

  it('shows arrows and Esc as symbols, and Ctrl as ⌘ on macOS', () => {
    expect(keyParts('Alt+ArrowUp')).toEqual(['Alt', '↑']);
    expect(keyParts('Escape')).toEqual(['Esc']);
    expect(keyParts('Ctrl+Shift+P')).toEqual(['Ctrl', 'Shift', 'P']);
    expect(keyParts('Ctrl+Shift+P', true)).toEqual(['⌘', 'Shift', 'P']);
  });

  it('filters by every word, in the meaning, the group or the keys as written or shown', () => {
    const groups = shortcutGroups([action('a', 'Hide the sidebar', 'Ctrl+B'), action('c', 'Go to the previous prompt', 'Alt+ArrowUp')]);
    expect(filterShortcuts(groups, 'sidebar').map((g) => g.shortcuts.map((s) => s.what))).toEqual([['Hide the sidebar']]);
    expect(filterShortcuts(groups, 'ctrl+b')[0]!.shortcuts).toEqual([{ keys: ['Ctrl+B'], what: 'Hide the sidebar' }]);
    expect(filterShortcuts(groups, 'alt+↑')[0]!.shortcuts.map((s) => s.what)).toEqual(['Go to the previous prompt']);
    expect(filterShortcuts(groups, 'find bar esc')).toEqual([{ title: 'In the find bar', shortcuts: [{ keys: ['Escape'], what: 'Close it' }] }]);
    expect(filterShortcuts(groups, 'no such thing')).toEqual([]);
    expect(filterShortcuts(groups, '  ')).toEqual(groups);
  });
});
