import { useEffect } from 'react';
import { actions } from '../palette/actions';
import { layout, useLayout } from '../state/layout-store';

/** "Ctrl+Shift+P" → matches a KeyboardEvent (Cmd counts as Ctrl on macOS). */
export function matchesKeys(keys: string, e: KeyboardEvent): boolean {
  const parts = keys.split('+');
  const key = parts.pop()!.toLowerCase();
  const want = new Set(parts.map((p) => p.toLowerCase()));
  if (want.has('ctrl') !== (e.ctrlKey || e.metaKey)) return false;
  if (want.has('shift') !== e.shiftKey) return false;
  if (want.has('alt') !== e.altKey) return false;
  return e.key.toLowerCase() === key;
}

/** Window-wide keyboard shortcuts from the action list. */
export function useKeyboardShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The Agents dialog opens without taking focus, so its own Esc handler does not see a key
      // pressed right after opening it: Esc closes it from anywhere.
      if (e.key === 'Escape' && !e.defaultPrevented && useLayout.getState().agentsOpen) {
        layout.openAgents(false);
        return;
      }
      // A dialog is modal: Ctrl+H opened History behind the New session dialog, and Ctrl+Shift+Y
      // would have answered a permission request nobody could see. Its own keys still work. The
      // comparison and the diff editor are modal too (`aria-modal`): Ctrl+F opened the find bar of
      // a pane they cover.
      if (document.querySelector('.dialog-backdrop, [aria-modal="true"]')) return;
      for (const action of actions()) {
        if (action.keys && matchesKeys(action.keys, e)) {
          e.preventDefault();
          action.run();
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
