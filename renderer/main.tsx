import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectWorkbench } from './api/workbench';
import { useConnection } from './state/connection-store';
import './styles/base.css';

const { api, transport, socket } = connectWorkbench();
const connection = useConnection.getState();
connection.set({ transport, state: transport === 'electron' ? 'open' : 'connecting' });
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
// A reconnect may mean a restarted core: refresh what we know about it.
socket?.onState((state) => {
  if (state === 'open') void loadInfo();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
