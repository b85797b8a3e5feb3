import type { SettingsUpdateParams, SettingsView } from '../../common/api/settings-types';
import { FieldError } from './FieldError';
import { settingsUi } from './settings-store';
import { CAPABILITY_TEXT } from './settings-texts';

type CapabilityKey = (typeof CAPABILITY_TEXT)[number]['key'];

function current(view: SettingsView, key: CapabilityKey): boolean {
  const c = view.values.clientCapabilities;
  return key === 'terminal' ? c.terminal : key === 'authTerminal' ? c.auth.terminal : c.fs[key];
}

function change(key: CapabilityKey, on: boolean): NonNullable<SettingsUpdateParams['clientCapabilities']> {
  if (key === 'terminal') return { terminal: on };
  if (key === 'authTerminal') return { auth: { terminal: on } };
  return { fs: { [key]: on } };
}

/** The switches advertised to every agent in `initialize` (one agent's can differ: agentOverrides in settings.json). */
export function CapabilitiesSection({ view }: { view: SettingsView }) {
  return (
    <section className="settings-section" aria-labelledby="settings-capabilities">
      <h3 id="settings-capabilities">Client capabilities</h3>
      <p className="muted small">Advertised to agents in initialize; sessions started after a change see it.</p>
      {CAPABILITY_TEXT.map((c) => (
        <label key={c.key} className="settings-choice">
          <input type="checkbox" checked={current(view, c.key)} onChange={(e) => void settingsUi.update({ clientCapabilities: change(c.key, e.target.checked) })} data-testid={`settings-cap-${c.key}`} />
          <span>
            <code>{c.path}</code> <span className="muted">{c.explanation}</span>
          </span>
          <FieldError field={`clientCapabilities.${c.path}`} />
        </label>
      ))}
    </section>
  );
}
