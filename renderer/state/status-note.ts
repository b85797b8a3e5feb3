/**
 * One short note in the status bar about something the user started that has no screen of its own
 * (a palette action: "Exported session-…md", "Could not export: …"). A newer note replaces the
 * older; an info note goes after a few seconds, an error stays until dismissed or replaced.
 */
import { create } from 'zustand';

export interface StatusNote {
  text: string;
  kind: 'info' | 'error';
  /** Distinguishes equal texts shown twice (the second restarts the timer). */
  seq: number;
}

/** How long an info note stays. */
export const INFO_NOTE_MS = 6000;

export const useStatusNote = create<{ note: StatusNote | null }>(() => ({ note: null }));

let seq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

export const statusNote = {
  show(text: string, kind: StatusNote['kind'] = 'info'): void {
    clearTimeout(timer);
    const note = { text, kind, seq: ++seq };
    useStatusNote.setState({ note });
    if (kind === 'info') timer = setTimeout(() => statusNote.dismiss(note.seq), INFO_NOTE_MS);
  },
  /** Removes the note (only the one numbered `which`, when given: a later note stays). */
  dismiss(which?: number): void {
    if (which !== undefined && useStatusNote.getState().note?.seq !== which) return;
    clearTimeout(timer);
    useStatusNote.setState({ note: null });
  },
};
