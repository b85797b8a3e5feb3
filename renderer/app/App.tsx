import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { Welcome } from './Welcome';

/** The window: sidebar, main area, status bar. */
export function App() {
  return (
    <div className="app" data-testid="app-root">
      <Sidebar />
      <main className="main-area" data-testid="main-area">
        <Welcome />
      </main>
      <StatusBar />
    </div>
  );
}
