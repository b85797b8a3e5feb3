import { api, errorText } from '../api/api-context';
import { statusNote } from '../state/status-note';
import { recipeFromSession } from '../compare/compare-session';
import { runs, useRuns } from '../compare/runs-store';
import { answerFirstPending } from '../permissions/answer';
import { exportSession } from '../history/export-session';
import { historyUi, useHistoryUi } from '../history/history-store';
import { inspectorUi, type InspectorTab } from '../inspector/inspector-ui';
import { settingsUi } from '../settings/settings-store';
import { layout, useLayout } from '../state/layout-store';
import { toggleSidebar } from '../app/sidebar-toggle';
import { renaming } from '../panes/rename-store';
import { findUi, useFind } from '../transcript/find-store';
import { firstRowInView, promptBeside, reveal } from '../transcript/reveal-store';
import { useSessions } from '../state/sessions-store';

/** Every action of the window: listed by the command palette, bound to keys where they have one. */
export interface Action {
  id: string;
  title: string;
  keys?: string;
  /** Why it cannot run now (the palette shows it greyed with this reason); absent when it can. */
  unavailable?: string;
  run(): void;
}

const focused = () => useLayout.getState().focused;

/** Why an action on the focused pane cannot run: no pane, or (with `need`) the pane's state. */
function focusedPaneProblem(need?: 'turn' | 'permission'): string | undefined {
  const id = focused();
  if (!id) return 'No session pane is open';
  const summary = useSessions.getState().views[id]?.summary;
  if (need === 'turn' && summary && summary.status.status !== 'prompting' && summary.status.status !== 'waiting') return 'The focused pane’s agent is not working';
  if (need === 'permission' && summary && summary.waiting === 0) return 'No permission request waits in the focused pane';
  return undefined;
}

/** The inspector's tabs, each opened on the focused pane by an action of its own. */
const INSPECTOR_TABS: ReadonlyArray<[InspectorTab, string]> = [
  ['messages', 'Inspector: every protocol message of the focused pane'],
  ['faults', 'Inspector: fault injection and manual answers for the focused pane'],
  ['composer', 'Inspector: compose a raw message to the focused pane’s agent'],
  ['conformance', 'Inspector: conformance report of the focused pane’s agent'],
];

/** Why find's next / previous cannot run: no pane, or no words to find in it. */
function findProblem(): string | undefined {
  const id = focused();
  if (!id) return 'No session pane is open';
  const f = useFind.getState().bySession[id];
  return f?.open && f.query.trim() ? undefined : 'Nothing to find yet: Ctrl+F first';
}

/** The run whose strip shows, else the newest. */
function currentRunId(): string | undefined {
  const s = useRuns.getState();
  return s.activeRunId ?? s.order[0];
}

export function actions(): Action[] {
  const list: Action[] = [
    { id: 'session.new', title: 'New session…', keys: 'Ctrl+N', run: () => layout.openNewSession() },
    { id: 'compare.new', title: 'New compare run: one prompt to several agents…', run: () => runs.openNewRun() },
    {
      id: 'compare.open',
      title: 'Open the comparison of the current compare run',
      unavailable: useRuns.getState().order.length === 0 ? 'No compare run yet' : undefined,
      run: () => {
        const id = currentRunId();
        if (id) runs.openComparison(id);
      },
    },
    {
      id: 'compare.again',
      title: 'Run the current compare run again: a new run filled from it…',
      unavailable: useRuns.getState().order.length === 0 ? 'No compare run yet' : undefined,
      run: () => {
        const id = currentRunId();
        if (id) void runs.runAgain(id).catch((err: unknown) => statusNote.show(`Could not run it again: ${errorText(err)}`, 'error'));
      },
    },
    {
      id: 'compare.session',
      title: 'Compare across agents: a new compare run with the focused session’s folder and last prompt…',
      unavailable: focusedPaneProblem(),
      run: () => {
        const view = focused() ? useSessions.getState().views[focused()!] : undefined;
        if (view) runs.openNewRun(true, { kind: 'session', recipe: recipeFromSession(view) });
      },
    },
    { id: 'history.open', title: 'History: search, resume and fork recorded sessions', keys: 'Ctrl+H', run: () => historyUi.open() },
    {
      id: 'session.inHistory',
      title: 'Open the focused session in History (fork, rename, tag, lineage)',
      unavailable: focusedPaneProblem(),
      run: () => focused() && historyUi.open(focused()),
    },
    ...([
      ['md', 'Export the focused session’s transcript as Markdown'],
      ['jsonl', 'Export the focused session’s trace (.jsonl: replayable, importable)'],
    ] as const).map(
      ([format, title]): Action => ({
        id: `session.export.${format}`,
        title,
        unavailable: focusedPaneProblem(),
        run: () => focused() && void exportSession(focused()!, format),
      }),
    ),
    { id: 'agents.open', title: 'Agents: catalog and custom agents…', run: () => layout.openAgents() },
    { id: 'palette.open', title: 'Show all commands', keys: 'Ctrl+Shift+P', run: () => layout.openPalette() },
    { id: 'help.shortcuts', title: 'Keyboard shortcuts', keys: 'Ctrl+/', run: () => layout.openShortcuts() },
    {
      id: 'view.sidebar',
      title: useLayout.getState().sidebarHidden ? 'Show the sidebar' : 'Hide the sidebar (the panes take the whole width)',
      keys: 'Ctrl+B',
      run: () => toggleSidebar(),
    },
    {
      id: 'turn.cancel',
      title: 'Cancel the turn of the focused pane',
      keys: 'Ctrl+.',
      unavailable: focusedPaneProblem('turn'),
      run: () => {
        const id = focused();
        if (id) void api().request('session/cancel', { sessionId: id });
      },
    },
    {
      id: 'permission.approve',
      title: 'Approve the focused pane’s permission request',
      keys: 'Ctrl+Shift+Y',
      unavailable: focusedPaneProblem('permission'),
      run: () => {
        const id = focused();
        if (id) void answerFirstPending(id, 'allow');
      },
    },
    {
      id: 'permission.reject',
      title: 'Reject the focused pane’s permission request',
      keys: 'Ctrl+Shift+N',
      unavailable: focusedPaneProblem('permission'),
      run: () => {
        const id = focused();
        if (id) void answerFirstPending(id, 'reject');
      },
    },
    {
      id: 'session.rename',
      title: 'Rename the focused session…',
      keys: 'F2',
      unavailable: focusedPaneProblem(),
      run: () => {
        const id = focused();
        if (id) renaming.start(id);
      },
    },
    {
      id: 'composer.focus',
      title: 'Focus the prompt of the focused pane',
      keys: 'Ctrl+L',
      unavailable: focusedPaneProblem(),
      run: () => focusComposer(focused()),
    },
    {
      id: 'find.open',
      title: 'Find in the focused pane’s transcript (in History: its search)',
      keys: 'Ctrl+F',
      unavailable: useHistoryUi.getState().open ? undefined : focusedPaneProblem(),
      run: () => {
        // History covers the panes: its own search box is what the reader means.
        if (useHistoryUi.getState().open) return focusInput('[data-testid="history-search"]');
        const id = focused();
        if (id) findUi.open(id);
      },
    },
    {
      id: 'find.next',
      title: 'Find: next match in the focused pane',
      keys: 'F3',
      unavailable: findProblem(),
      run: () => focused() && void findUi.step(focused()!, 1),
    },
    {
      id: 'find.previous',
      title: 'Find: previous match in the focused pane',
      keys: 'Shift+F3',
      unavailable: findProblem(),
      run: () => focused() && void findUi.step(focused()!, -1),
    },
    ...([
      ['prompt.previous', 'Go to the previous prompt in the focused pane', 'Alt+ArrowUp', -1],
      ['prompt.next', 'Go to the next prompt in the focused pane', 'Alt+ArrowDown', 1],
    ] as const).map(
      ([id, title, keys, by]): Action => ({
        id,
        title,
        keys,
        unavailable: focusedPaneProblem(),
        run: () => {
          const sessionId = focused();
          const top = sessionId ? firstRowInView(sessionId) : null;
          const target = sessionId && top !== null ? promptBeside(sessionId, top, by) : null;
          if (sessionId && target) reveal(sessionId, target);
        },
      }),
    ),
    {
      id: 'inspector.toggle',
      title: 'Show or hide the protocol inspector of the focused pane',
      unavailable: focusedPaneProblem(),
      run: () => focused() && layout.toggleInspector(focused()!),
    },
    ...INSPECTOR_TABS.map(
      ([tab, title]): Action => ({
        id: `inspector.${tab}`,
        title,
        unavailable: focusedPaneProblem(),
        run: () => {
          const id = focused();
          if (!id) return;
          inspectorUi.setTab(id, tab);
          layout.openInspector(id);
        },
      }),
    ),
    { id: 'pane.hide', title: 'Hide the focused pane (the session keeps running)', unavailable: focusedPaneProblem(), run: () => focused() && layout.hide(focused()!) },
    { id: 'changes.toggle', title: 'Show or hide the files changed in the focused pane', unavailable: focusedPaneProblem(), run: () => focused() && layout.toggleChanges(focused()!) },
    { id: 'settings.open', title: 'Settings: new sessions, capabilities, theme, MCP servers, secrets…', keys: 'Ctrl+,', run: () => settingsUi.openScreen() },
    // The theme is a setting (settings.json): every window follows the change.
    { id: 'theme.light', title: 'Theme: light', run: () => void settingsUi.update({ theme: 'light' }) },
    { id: 'theme.dark', title: 'Theme: dark', run: () => void settingsUi.update({ theme: 'dark' }) },
    { id: 'theme.system', title: 'Theme: follow the system', run: () => void settingsUi.update({ theme: 'system' }) },
  ];
  const panes = useLayout.getState().panes.length;
  for (let n = 1; n <= 6; n++) {
    list.push({ id: `pane.focus.${n}`, title: `Focus pane ${n}`, keys: `Ctrl+${n}`, unavailable: n > panes ? `There ${panes === 1 ? 'is 1 pane' : `are ${panes} panes`}` : undefined, run: () => {
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

function focusInput(selector: string): void {
  const el = document.querySelector<HTMLInputElement>(selector);
  el?.focus();
  el?.select();
}
