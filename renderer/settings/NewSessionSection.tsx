import { useEffect, useState } from 'react';
import type { SettingsView } from '../../common/api/settings-types';
import type { CatalogAgentView } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { FieldError } from './FieldError';
import { settingsUi } from './settings-store';
import { POLICY_ORDER, POLICY_TEXT } from './settings-texts';
import { AgentOptions } from '../agents/AgentOptions';

/** What a new session starts with: the agent, the folder, how permission requests are answered. */
export function NewSessionSection({ view }: { view: SettingsView }) {
  const [catalog, setCatalog] = useState<CatalogAgentView[]>([]);
  const [catalogError, setCatalogError] = useState<string | null>(null);
  const [folder, setFolder] = useState(view.values.defaultFolder ?? '');
  useEffect(() => {
    api()
      .request('agents/catalog')
      .then(setCatalog)
      .catch((err: unknown) => setCatalogError(errorText(err)));
  }, []);
  useEffect(() => setFolder(view.values.defaultFolder ?? ''), [view.values.defaultFolder]);
  const saveFolder = () => void settingsUi.update({ defaultFolder: folder.trim() ? folder.trim() : null });
  const agentId = view.values.defaultAgent ?? '';
  return (
    <section className="settings-section" aria-labelledby="settings-new-sessions">
      <h3 id="settings-new-sessions">New sessions</h3>
      <label>
        Default agent
        <select value={agentId} onChange={(e) => void settingsUi.update({ defaultAgent: e.target.value || null })} data-testid="settings-default-agent">
          <option value="">(none: the last one used)</option>
          {agentId && !catalog.some((a) => a.id === agentId) && <option value={agentId}>{agentId}</option>}
          <AgentOptions catalog={catalog} />
        </select>
        <FieldError field="defaultAgent" />
        {catalogError && <span className="error">{catalogError}</span>}
      </label>
      <label>
        Default folder (absolute, or starting with ~/)
        <span className="row">
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                saveFolder();
              }
            }}
            placeholder="~/projects"
            spellCheck={false}
            data-testid="settings-default-folder"
          />
          <button type="button" onClick={saveFolder} disabled={folder.trim() === (view.values.defaultFolder ?? '')} data-testid="settings-default-folder-save">
            Save
          </button>
        </span>
        <FieldError field="defaultFolder" />
      </label>
      <fieldset className="settings-choices" data-testid="settings-policy">
        <legend>Permission requests</legend>
        {POLICY_ORDER.map((p) => (
          <label key={p} className="settings-choice">
            <input type="radio" name="settings-policy" value={p} checked={view.values.permissionPolicy === p} onChange={() => void settingsUi.update({ permissionPolicy: p })} data-testid={`settings-policy-${p}`} />
            <span>
              <strong>{POLICY_TEXT[p].label}</strong> <span className="muted">{POLICY_TEXT[p].explanation}</span>
            </span>
          </label>
        ))}
        <FieldError field="permissionPolicy" />
      </fieldset>
    </section>
  );
}
