import { api } from '../api/api-context';
import { runs, useRuns } from '../compare/runs-store';
import { answerFirstPending } from '../permissions/answer';
import { historyUi } from '../history/history-store';
import { settingsUi } from '../settings/settings-store';
import { layout, useLayout } from '../state/layout-store';

/** Every action of the window: listed by the command palette, bound to keys where they have one. */
export interface Action {
  id: string;
  title: string;
  keys?: string;
  run(): void;
}

const focused = () => useLayout.getState().focused;

export function actions(): Action[] {
  const list: Action[] = [
    { id: 'session.new', title: 'New session…', keys: 'Ctrl+N', run: () => layout.openNewSession() },
    { id: 'compare.new', title: 'New compare run: one prompt to several agents…', run: () => runs.openNewRun() },
    {
      id: 'compare.open',
      title: 'Open the comparison of the current compare run',
      run: () => {
        const s = useRuns.getState();
        const id = s.activeRunId ?? s.order[0];
        if (id) runs.openComparison(id);
      },
    },
    { id: 'history.open', title: 'History: search, resume and fork recorded sessions', keys: 'Ctrl+H', run: () => historyUi.open() },
    { id: 'agents.open', title: 'Agents: catalog and custom agents…', run: () => layout.openAgents() },
    { id: 'palette.open', title: 'Show all commands', keys: 'Ctrl+Shift+P', run: () => layout.openPalette() },
    {
      id: 'turn.cancel',
      title: 'Cancel the turn of the focused pane',
      keys: 'Ctrl+.',
      run: () => {
        const id = focused();
        if (id) void api().request('session/cancel', { sessionId: id });
      },
    },
    {
      id: 'permission.approve',
      title: 'Approve the focused pane’s permission request',
      keys: 'Ctrl+Shift+Y',
      run: () => {
        const id = focused();
        if (id) void answerFirstPending(id, 'allow');
      },
    },
    {
      id: 'permission.reject',
      title: 'Reject the focused pane’s permission request',
      keys: 'Ctrl+Shift+N',
      run: () => {
        const id = focused();
        if (id) void answerFirstPending(id, 'reject');
      },
    },
    {
      id: 'composer.focus',
      title: 'Focus the prompt of the focused pane',
      keys: 'Ctrl+L',
      run: () => focusComposer(focused()),
    },
    { id: 'changes.toggle', title: 'Show or hide the files changed in the focused pane', run: () => focused() && layout.toggleChanges(focused()!) },
    { id: 'settings.open', title: 'Settings: new sessions, capabilities, theme, MCP servers, secrets…', keys: 'Ctrl+,', run: () => settingsUi.openScreen() },
    // The theme is a setting (settings.json): every window follows the change.
    { id: 'theme.light', title: 'Theme: light', run: () => void settingsUi.update({ theme: 'light' }) },
    { id: 'theme.dark', title: 'Theme: dark', run: () => void settingsUi.update({ theme: 'dark' }) },
    { id: 'theme.system', title: 'Theme: follow the system', run: () => void settingsUi.update({ theme: 'system' }) },
  ];
  for (let n = 1; n <= 6; n++) {
    list.push({ id: `pane.focus.${n}`, title: `Focus pane ${n}`, keys: `Ctrl+${n}`, run: () => {
      layout.focusIndex(n - 1);
      focusComposer(useLayout.getState().panes[n - 1] ?? null);
    } });
  }
  return list;
}

export function focusComposer(sessionId: string | null): void {
  if (!sessionId) return;
  const el = document.querySelector<HTMLTextAreaElement>(`[data-testid="session-pane"][data-session-id="${CSS.escape(sessionId)}"] [data-testid="composer-input"]`);
  el?.focus();
}
