import { useAppCommands } from './app-commands';
import { lazy, Suspense, useEffect } from 'react';
import { AgentsDialog } from '../agents/AgentsDialog';
import { CompareDialogs, CompareTop } from '../compare/CompareRoot';
import { useHistoryUi } from '../history/history-store';
import { DiffDialog } from '../monaco/DiffDialog';
import { RelativesView } from '../history/RelativesView';
import { CommandPalette } from '../palette/CommandPalette';
import { ShortcutsDialog } from './ShortcutsDialog';
import { useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { useShallow } from 'zustand/react/shallow';
import { knownPanes } from '../state/pane-selectors';
import { useSettings } from '../settings/settings-store';
import { NewSessionDialog } from './NewSessionDialog';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { useAttention } from './attention';
import { useKeyboardShortcuts } from './shortcuts';
import { lazyUntilOpen } from './lazy-until-open';
import { Welcome } from './Welcome';
import { InterruptedBanner } from './InterruptedBanner';

// The panes (transcripts, markdown, the virtualizer) load while the first view shows, and are
// fetched in the background right after it, so the first session does not wait for them.
const loadPanes = () => import('../panes/PaneArea');
const PaneArea = lazy(async () => ({ default: (await loadPanes()).PaneArea }));

// Screens a window may never open load with their first opening (start-up, issue #11).
const SettingsDialog = lazyUntilOpen(
  () => useSettings((s) => s.open),
  async () => (await import('../settings/SettingsDialog')).SettingsDialog,
);
const HistoryScreen = lazyUntilOpen(
  () => useHistoryUi((s) => s.open),
  async () => (await import('../history/HistoryScreen')).HistoryScreen,
);

/** The window: sidebar, the session panes side by side, status bar, and the dialogs. */
export function App() {
  const theme = useLayout((s) => s.theme);
  const sidebarHidden = useLayout((s) => s.sidebarHidden);
  const panes = useLayout((s) => s.panes);
  // A list that keeps its identity while the panes stay the same (pane-selectors.ts): selecting
  // `views` itself re-rendered the whole window on every streamed frame (issue #11).
  const visible = useSessions(useShallow(knownPanes(panes)));
  useKeyboardShortcuts();
  useAppCommands();
  useAttention();
  useEffect(() => {
    const prefetch = () => void loadPanes().catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(prefetch, { timeout: 500 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(prefetch, 0);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className={`app${sidebarHidden ? ' no-sidebar' : ''}`} data-testid="app-root">
      {!sidebarHidden && <Sidebar />}
      <main className="main-area" data-testid="main-area">
        <InterruptedBanner />
        <CompareTop />
        {visible.length ? (
          <Suspense fallback={null}>
            <PaneArea panes={visible} />
          </Suspense>
        ) : (
          <Welcome />
        )}
      </main>
      <StatusBar />
      <NewSessionDialog />
      <CommandPalette />
      <ShortcutsDialog />
      <AgentsDialog />
      <SettingsDialog />
      <HistoryScreen />
      <RelativesView />
      <DiffDialog />
      <CompareDialogs />
    </div>
  );
}
