import { useEffect, useRef } from 'react';
import { AppearanceSection } from './AppearanceSection';
import { CapabilitiesSection } from './CapabilitiesSection';
import { McpServersSection } from './McpServersSection';
import { NewSessionSection } from './NewSessionSection';
import { SecretsSection } from './SecretsSection';
import { settingsUi, useSettings } from './settings-store';
import './settings.css';

/**
 * The settings screen: what settings.json says (each change is saved at once, atomically, and
 * every window follows), the problems found in the file, and the agents' secrets by name.
 */
export function SettingsDialog() {
  const open = useSettings((s) => s.open);
  const view = useSettings((s) => s.view);
  const failure = useSettings((s) => s.failure);
  const errors = useSettings((s) => s.errors);
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    // Focus moves into the screen, and back to where it was when the screen closes.
    const before = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    return () => before?.focus();
  }, [open]);
  if (!open) return null;
  const close = () => settingsUi.openScreen(false);
  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        ref={dialogRef}
        tabIndex={-1}
        className="dialog settings"
        role="dialog"
        aria-label="Settings"
        data-testid="settings-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      >
        <div className="row settings-head">
          <h2>Settings</h2>
          <span className="spacer" />
          <button type="button" className="icon" onClick={close} aria-label="Close settings" data-testid="settings-close">
            ✕
          </button>
        </div>
        {view && (
          <p className="muted small" data-testid="settings-file">
            Saved as you change them to <code>{view.file}</code>
            {view.exists ? '' : ' (created on the first change)'}; the app, the web host and the CLI share this file.
          </p>
        )}
        {view && view.problems.length > 0 && (
          <ul className="settings-problems" data-testid="settings-problems" role="alert">
            {view.problems.map((p, i) => (
              <li key={i} className={p.severity === 'error' ? 'error' : 'warn'} data-testid="settings-problem" data-severity={p.severity}>
                <code>{p.path || '(top level)'}</code>: {p.message}
              </li>
            ))}
          </ul>
        )}
        {errors[''] && (
          <pre className="error settings-file-error" role="alert" data-testid="settings-error-file">
            {errors['']}
          </pre>
        )}
        {failure && (
          <p className="error" role="alert" data-testid="settings-failure">
            {failure}
          </p>
        )}
        {view ? (
          <>
            <NewSessionSection view={view} />
            <CapabilitiesSection view={view} />
            <AppearanceSection view={view} />
            <McpServersSection view={view} />
            <SecretsSection />
          </>
        ) : (
          !failure && <p className="muted">Loading…</p>
        )}
      </div>
    </div>
  );
}
