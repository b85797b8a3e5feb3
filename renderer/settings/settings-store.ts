/**
 * The settings screen's state: settings.json as the core last reported it, the secret names, and
 * whether the screen is open. Every window follows `settings/changed`, and the app's theme is
 * taken from the file (the layout store keeps a copy in localStorage so a reload paints in the
 * right theme before the core answers).
 */
import { create } from 'zustand';
import type { WorkbenchApi } from '../../common/api/client';
import type { SecretsListResult, SettingsFieldError, SettingsUpdateParams, SettingsView } from '../../common/api/settings-types';
import { api, errorText } from '../api/api-context';
import { layout } from '../state/layout-store';

export interface SettingsStore {
  open: boolean;
  view: SettingsView | null;
  secrets: SecretsListResult | null;
  /** Errors of the last refused change, by field. */
  errors: Record<string, string>;
  /** A failure that is not about one field (transport, file). */
  failure: string | null;
}

export const useSettings = create<SettingsStore>(() => ({ open: false, view: null, secrets: null, errors: {}, failure: null }));

function applyView(view: SettingsView): void {
  useSettings.setState({ view });
  layout.setTheme(view.values.theme);
}

/**
 * Changes sent and not answered yet. A view from the core (an answer to an earlier change, or
 * `settings/changed`) may predate them: they are laid over it, so a switch the user just moved
 * does not jump back while the core catches up.
 */
const pending: SettingsUpdateParams[] = [];
let lastFromCore: SettingsView | null = null;

function applyCoreView(view: SettingsView): void {
  lastFromCore = view;
  applyView(pending.reduce(withChange, view));
}

export function fieldErrors(errors: SettingsFieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.field] = out[e.field] ? `${out[e.field]}\n${e.message}` : e.message;
  return out;
}

/**
 * The view with a change already applied, shown while the core saves it (a switch must move when
 * clicked); the core's answer replaces it — with the old values when the change was refused.
 */
export function withChange(view: SettingsView, change: SettingsUpdateParams): SettingsView {
  const values = { ...view.values };
  if (change.defaultAgent !== undefined) values.defaultAgent = change.defaultAgent;
  if (change.defaultFolder !== undefined) values.defaultFolder = change.defaultFolder;
  if (change.permissionPolicy) values.permissionPolicy = change.permissionPolicy;
  if (change.theme) values.theme = change.theme;
  if (change.mcpServers) values.mcpServers = change.mcpServers;
  const caps = change.clientCapabilities;
  if (caps) {
    const c = values.clientCapabilities;
    values.clientCapabilities = { fs: { ...c.fs, ...caps.fs }, terminal: caps.terminal ?? c.terminal, auth: { ...c.auth, ...caps.auth } };
  }
  return { ...view, values };
}

export const settingsUi = {
  openScreen(open = true): void {
    useSettings.setState({ open, errors: {}, failure: null });
    if (open) void settingsUi.refresh();
  },
  async refresh(): Promise<void> {
    try {
      const [view, secrets] = await Promise.all([api().request('settings/get'), api().request('secrets/list', {})]);
      applyCoreView(view);
      useSettings.setState({ secrets, failure: null });
    } catch (err) {
      useSettings.setState({ failure: errorText(err) });
    }
  },
  /** Save a change; true when saved. Refusals land in `errors` by field. */
  async update(change: SettingsUpdateParams): Promise<boolean> {
    const fields = Object.keys(change);
    const kept = Object.fromEntries(Object.entries(useSettings.getState().errors).filter(([f]) => !fields.some((k) => f === k || f.startsWith(`${k}.`) || f.startsWith(`${k}[`))));
    const before = useSettings.getState().view;
    if (before) applyView(withChange(before, change));
    pending.push(change);
    const settle = () => pending.splice(pending.indexOf(change), 1);
    try {
      const result = await api().request('settings/update', change);
      settle();
      applyCoreView(result.view);
      if (result.saved) {
        useSettings.setState({ errors: { ...kept }, failure: null });
        return true;
      }
      useSettings.setState({ errors: { ...kept, ...fieldErrors(result.errors) } });
      return false;
    } catch (err) {
      settle();
      if (lastFromCore) applyCoreView(lastFromCore);
      else if (before) applyView(before);
      useSettings.setState({ failure: errorText(err) });
      return false;
    }
  },
  setSecrets(secrets: SecretsListResult): void {
    const current = useSettings.getState().secrets;
    useSettings.setState({ secrets: { protection: secrets.protection, agents: { ...current?.agents, ...secrets.agents } } });
  },
};

/** Core events → store; the theme is read once at connection. */
export function connectSettingsStore(client: WorkbenchApi): () => void {
  const offs = [
    client.on('settings/changed', ({ view }) => applyCoreView(view)),
    client.on('secrets/changed', (secrets) => useSettings.setState({ secrets })),
  ];
  void client.request('settings/get').then(applyCoreView, () => undefined);
  return () => offs.forEach((off) => off());
}
