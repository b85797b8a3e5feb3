/**
 * The desktop app's menu (main/electron/menu.ts) sends `app/command` with a palette action's id to
 * the window it was chosen in; the window runs it as its palette would — not while a dialog is
 * open (the window's keys wait then too), nor when the action cannot run now; the status bar says
 * why instead.
 */
import { useEffect } from 'react';
import { api } from '../api/api-context';
import { actions, type Action } from '../palette/actions';
import { statusNote } from '../state/status-note';

/** Runs the action `command` of `list`, or says why not (`say`); true when it ran. */
export function runAppCommand(command: string, list: readonly Action[], modalOpen: boolean, say: (text: string) => void): boolean {
  const action = list.find((a) => a.id === command);
  if (!action) {
    say(`The menu asked for "${command}", which this window does not know: reload the window.`);
    return false;
  }
  if (modalOpen) {
    say(`${action.title.replace(/…$/, '')}: close the open dialog first.`);
    return false;
  }
  if (action.unavailable) {
    say(`${action.title.replace(/…$/, '')}: ${action.unavailable}.`);
    return false;
  }
  action.run();
  return true;
}

export function useAppCommands(): void {
  useEffect(
    () =>
      api().on('app/command', ({ command }) => {
        const modalOpen = document.querySelector('.dialog-backdrop, [aria-modal="true"]') !== null;
        runAppCommand(command, actions(), modalOpen, (text) => statusNote.show(text));
      }),
    [],
  );
}
