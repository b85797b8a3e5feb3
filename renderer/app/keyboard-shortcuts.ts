/**
 * What the Keyboard shortcuts dialog lists: the window's own shortcuts, taken from the actions
 * (so a key added to an action shows here with no second list to keep), then the keys of the
 * places that have their own — the prompt box, find, History, the inspector, lists and dialogs —
 * which are handled where they are and written down here.
 */
import type { Action } from '../palette/actions';

export interface Shortcut {
  /** As the actions write them ("Ctrl+Shift+P", "Alt+ArrowUp"); several for one meaning, any of them. */
  keys: string[];
  what: string;
  /** `keys` are the first and last of a numbered run ("Ctrl+1" … "Ctrl+9"). */
  range?: true;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

/** Keys handled by one part of the window (see each part's key handler). */
export const CONTEXT_SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: 'In the prompt box',
    shortcuts: [
      { keys: ['Enter'], what: 'Send the prompt' },
      { keys: ['Ctrl+Enter'], what: 'Send it to every selected pane' },
      { keys: ['Shift+Enter'], what: 'New line' },
      { keys: ['Escape'], what: 'Cancel the turn while the agent works' },
      { keys: ['ArrowUp', 'ArrowDown'], what: 'Back / forward through your earlier prompts (↑ with the caret at the start)' },
      { keys: ['Tab'], what: 'Complete the slash command picked (↑ ↓ pick one)' },
    ],
  },
  {
    title: 'In the find bar',
    shortcuts: [
      { keys: ['Enter', 'Shift+Enter'], what: 'Next / previous match' },
      { keys: ['Escape'], what: 'Close it' },
    ],
  },
  {
    title: 'In History',
    shortcuts: [
      { keys: ['ArrowUp', 'ArrowDown'], what: 'Previous / next session' },
      { keys: ['Escape'], what: 'Close History' },
    ],
  },
  {
    title: 'In the protocol inspector',
    shortcuts: [
      { keys: ['ArrowUp', 'ArrowDown'], what: 'Previous / next message' },
      { keys: ['Home', 'End'], what: 'First / last message' },
      { keys: ['Ctrl+Enter'], what: 'Send the raw message (Compose tab)' },
    ],
  },
  {
    title: 'In the command palette and dialogs',
    shortcuts: [
      { keys: ['ArrowUp', 'ArrowDown'], what: 'Move through the commands' },
      { keys: ['Enter'], what: 'Run the command' },
      { keys: ['Escape'], what: 'Close the palette or dialog' },
    ],
  },
  {
    title: 'Renaming a pane',
    shortcuts: [
      { keys: ['Enter'], what: 'Keep the new title' },
      { keys: ['Escape'], what: 'Leave the title as it was' },
    ],
  },
];

/**
 * The window's shortcuts (actions with keys, in the palette's order), then the places' own. A run
 * of actions numbered alike — "Focus pane 1" on Ctrl+1, "Focus pane 2" on Ctrl+2… — is one row.
 */
export function shortcutGroups(actions: readonly Action[]): ShortcutGroup[] {
  const window: Shortcut[] = [];
  let run: { stem: string; keyStem: string; last: number } | undefined;
  for (const a of actions) {
    if (!a.keys) continue;
    const numbered = /^(.*) (\d)$/.exec(a.title);
    const keyed = /^(.*\+)(\d)$/.exec(a.keys);
    const n = numbered && keyed && numbered[2] === keyed[2] ? Number(numbered[2]) : undefined;
    const prev = window.at(-1);
    if (n !== undefined && run && prev && run.stem === numbered![1] && run.keyStem === keyed![1] && n === run.last + 1) {
      prev.keys = [prev.keys[0]!, a.keys];
      prev.what = `${run.stem} ${prev.keys[0]!.slice(run.keyStem.length)}–${n}`;
      prev.range = true;
      run.last = n;
      continue;
    }
    run = n !== undefined ? { stem: numbered![1]!, keyStem: keyed![1]!, last: n } : undefined;
    window.push({ keys: [a.keys], what: a.title });
  }
  return [{ title: 'Anywhere in the window', shortcuts: window }, ...CONTEXT_SHORTCUTS];
}

const KEY_NAMES: Readonly<Record<string, string>> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc' };

/** The parts of a key combination as shown: "Alt+ArrowUp" → ["Alt", "↑"]; Ctrl is ⌘ on macOS. */
export function keyParts(keys: string, mac = false): string[] {
  return keys.split('+').map((part) => (mac && part === 'Ctrl' ? '⌘' : (KEY_NAMES[part] ?? part)));
}

/** Groups whose title, a shortcut's meaning or its keys (as written or as shown) hold every word of `query`. */
export function filterShortcuts(groups: readonly ShortcutGroup[], query: string): ShortcutGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...groups];
  const out: ShortcutGroup[] = [];
  for (const g of groups) {
    const shortcuts = g.shortcuts.filter((s) => {
      const text = `${g.title} ${s.what} ${s.keys.join(' ')} ${s.keys.map((k) => keyParts(k).join('+')).join(' ')}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
    if (shortcuts.length) out.push({ title: g.title, shortcuts });
  }
  return out;
}
