import { describe, expect, it } from 'vitest';
import type { WorkbenchApi } from '../../common/api/client';
import { setApi } from '../api/api-context';
import type { SettingsView } from '../../common/api/settings-types';
import { fieldErrors, settingsUi, useSettings, withChange } from './settings-store';

const view: SettingsView = {
  file: '/c/settings.json',
  exists: true,
  defaultFolderResolved: null,
  problems: [],
  values: {
    defaultAgent: null,
    defaultFolder: null,
    permissionPolicy: 'ask',
    theme: 'system',
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: false } },
    mcpServers: [],
  },
};

describe('settings store', () => {
  it('shows a change at once: only the named values and switches move', () => {
    const next = withChange(view, { theme: 'dark', clientCapabilities: { fs: { writeTextFile: false } }, defaultAgent: 'demo' });
    expect(next.values).toEqual({ ...view.values, theme: 'dark', defaultAgent: 'demo', clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: true, auth: { terminal: false } } });
    expect(view.values.theme).toBe('system');
    expect(withChange(next, { defaultAgent: null }).values.defaultAgent).toBeNull();
  });

  it('groups refusals by field, several per field on separate lines', () => {
    expect(fieldErrors([{ field: 'theme', message: 'a' }, { field: 'theme', message: 'b' }, { field: '', message: 'file' }])).toEqual({ theme: 'a\nb', '': 'file' });
  });

  it('a slow answer to an earlier change does not undo a later one still in flight', async () => {
    // The core answers each change in the order asked; the test releases the answers by hand.
    const answers: Array<() => void> = [];
    let saved = view;
    setApi({
      request: (name: string, params: never) => {
        if (name !== 'settings/update') throw new Error(`unexpected ${name}`);
        saved = withChange(saved, params);
        const answer = { saved: true, errors: [], view: saved };
        return new Promise((done) => answers.push(() => done(answer)));
      },
      on: () => () => undefined,
    } as unknown as WorkbenchApi);
    useSettings.setState({ view });
    const first = settingsUi.update({ mcpServers: [{ name: 'files', command: 'x', args: [], env: [], enabled: true }] });
    const second = settingsUi.update({ mcpServers: [{ name: 'files', command: 'x', args: [], env: [], enabled: false }] });
    answers.shift()!(); // the first answer arrives: it knows nothing of the second change
    await first;
    expect(useSettings.getState().view!.values.mcpServers[0]!.enabled).toBe(false);
    answers.shift()!();
    await second;
    expect(useSettings.getState().view!.values.mcpServers[0]!.enabled).toBe(false);
  });
});

