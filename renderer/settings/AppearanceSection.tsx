import type { SettingsView, ThemeView } from '../../common/api/settings-types';
import { FieldError } from './FieldError';
import { settingsUi } from './settings-store';
import { THEME_TEXT } from './settings-texts';

/** The theme: applied at once, in every window. */
export function AppearanceSection({ view }: { view: SettingsView }) {
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h3 id="settings-appearance">Appearance</h3>
      <fieldset className="settings-choices row" data-testid="settings-theme">
        <legend>Theme</legend>
        {(Object.keys(THEME_TEXT) as ThemeView[]).map((t) => (
          <label key={t} className="inline">
            <input type="radio" name="settings-theme" value={t} checked={view.values.theme === t} onChange={() => void settingsUi.update({ theme: t })} data-testid={`settings-theme-${t}`} />
            {THEME_TEXT[t]}
          </label>
        ))}
      </fieldset>
      <FieldError field="theme" />
    </section>
  );
}
