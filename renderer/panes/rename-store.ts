/**
 * Which pane's session title is being edited (F2, the palette's "Rename the focused session…", a
 * double-click on the title): one at a time. Saving goes to the core (`session/rename`), which puts
 * the title on the session's record; the pane's header, the sidebar and History take it from there.
 */
import { create } from 'zustand';
import { api, errorText } from '../api/api-context';
import { statusNote } from '../state/status-note';

export const useRenaming = create<{ sessionId: string | null }>(() => ({ sessionId: null }));

export const renaming = {
  start(sessionId: string): void {
    useRenaming.setState({ sessionId });
  },
  stop(): void {
    useRenaming.setState({ sessionId: null });
  },
  /**
   * Saves `title` (blank: the user's title is cleared) unless it is what the session has. Once per
   * edit: the field's blur after Enter or Esc (it goes away) saves nothing.
   */
  async save(sessionId: string, title: string, current: string | null): Promise<void> {
    if (useRenaming.getState().sessionId !== sessionId) return;
    renaming.stop();
    const next = title.replace(/\s+/g, ' ').trim();
    if (next === (current ?? '')) return;
    try {
      await api().request('session/rename', { sessionId, title: next || null });
    } catch (err) {
      statusNote.show(`Could not rename the session: ${errorText(err)}`, 'error');
    }
  },
};
