import { useEffect } from 'react';
import { AgentsDialog } from '../agents/AgentsDialog';
import { CompareDialogs, CompareTop } from '../compare/CompareRoot';
import { useHistoryUi } from '../history/history-store';
import { DiffDialog } from '../monaco/DiffDialog';
import { RelativesView } from '../history/RelativesView';
import { CommandPalette } from '../palette/CommandPalette';
import { PaneArea } from '../panes/PaneArea';
import { useLayout } from '../state/layout-store';
import { useSessions } from '../state/sessions-store';
import { useSettings } from '../settings/settings-store';
import { NewSessionDialog } from './NewSessionDialog';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { useAttention } from './attention';
import { useKeyboardShortcuts } from './shortcuts';
import { lazyUntilOpen } from './lazy-until-open';
import { Welcome } from './Welcome';

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
  const panes = useLayout((s) => s.panes);
  const views = useSessions((s) => s.views);
  const visible = panes.filter((id) => views[id]);
  useKeyboardShortcuts();
  useAttention();
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="app" data-testid="app-root">
      <Sidebar />
      <main className="main-area" data-testid="main-area">
        <CompareTop />
        {visible.length ? <PaneArea panes={visible} /> : <Welcome />}
      </main>
      <StatusBar />
      <NewSessionDialog />
      <CommandPalette />
      <AgentsDialog />
      <SettingsDialog />
      <HistoryScreen />
      <RelativesView />
      <DiffDialog />
      <CompareDialogs />
    </div>
  );
}
