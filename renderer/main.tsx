import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { setApi } from './api/api-context';
import { connectWorkbench } from './api/workbench';
import { useConnection } from './state/connection-store';
import { connectSessionsStore } from './state/sessions-store';
import { historyUi } from './history/history-store';
import { connectSettingsStore } from './settings/settings-store';
import { ignoreStrayDrops } from './app/stray-drops';
import { saveDraftsOnLeave } from './composer/drafts';
import './styles/base.css';

ignoreStrayDrops(window);
saveDraftsOnLeave(window);
const { api, transport, socket } = connectWorkbench();
setApi(api);
useConnection.getState().set({ transport, state: transport === 'electron' ? 'open' : 'connecting' });
socket?.onState((state) => useConnection.getState().set({ state }));

async function loadInfo(): Promise<void> {
  try {
    const info = await api.request('app/info');
    useConnection.getState().set({ info, error: null });
  } catch (err) {
    useConnection.getState().set({ error: err instanceof Error ? err.message : String(err) });
  }
}
void loadInfo();
let disconnectSessions = connectSessionsStore(api);
let disconnectSettings = connectSettingsStore(api);
// A reconnect may mean a restarted core, and events sent meanwhile are lost: refresh what we know
// (the sessions store reloads the transcripts it shows). The first open needs no
// refresh: the requests above were queued until it and go out with it.
let opened = false;
socket?.onState((state) => {
  if (state !== 'open') return;
  if (!opened) {
    opened = true;
    return;
  }
  void loadInfo();
  historyUi.changed(); // sessions may have been recorded while the window was away
  disconnectSessions();
  disconnectSessions = connectSessionsStore(api);
  disconnectSettings();
  disconnectSettings = connectSettingsStore(api);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
