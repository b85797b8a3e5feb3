import { useEffect } from 'react';
import { layout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';

/**
 * When the window is not focused: a desktop notification when an agent starts waiting for the
 * user or finishes a turn, and the count of waiting sessions in the title.
 */
export function useAttention(): void {
  useEffect(() => {
    let previous = useSessions.getState().views;
    return useSessions.subscribe((state) => {
      const views = state.views;
      let waiting = 0;
      for (const [id, view] of Object.entries(views)) {
        waiting += view.summary.waiting;
        const before = previous[id]?.summary;
        const now = view.summary;
        if (!before || document.hasFocus()) continue;
        const name = now.agent.name ?? now.agent.label;
        if (now.waiting > before.waiting) notify(id, `${name} is waiting for you`, 'A permission request needs an answer.');
        else if ((before.status.status === 'prompting' || before.status.status === 'waiting') && now.status.status !== before.status.status) {
          notify(id, `${name} finished`, now.status.status === 'crashed' ? (now.status.reason ?? 'The agent crashed.') : 'The turn ended.');
        }
      }
      previous = views;
      // Written only when it changes: this runs on every store commit (each streamed frame), and
      // writing the title replaces the <title> element's text (issue #11).
      const title = waiting > 0 ? `(${waiting}) ACP Workbench` : 'ACP Workbench';
      if (document.title !== title) document.title = title;
    });
  }, []);
}

/** A click on it brings the window forward with that session's pane focused. */
function notify(sessionId: string, title: string, body: string): void {
  if (typeof Notification === 'undefined') return;
  if (Notification.permission === 'granted') {
    const n = new Notification(title, { body, tag: sessionId });
    n.onclick = () => {
      window.focus();
      layout.show(sessionId);
      n.close();
    };
  } else if (Notification.permission === 'default') void Notification.requestPermission();
}
