import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../common/api/settings-types';
import { fieldErrors, withChange } from './settings-store';

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
});
