import { describe, expect, it } from 'vitest';
import { switchesFromSettings } from './capability-switches';
import { DEFAULT_CLIENT_CAPABILITIES } from './settings-schema';

describe('switchesFromSettings', () => {
  it('offers terminal logins where the host can run them, never where it cannot (the CLI)', () => {
    expect(switchesFromSettings(DEFAULT_CLIENT_CAPABILITIES).terminalAuth).toBe(true);
    expect(switchesFromSettings(DEFAULT_CLIENT_CAPABILITIES, { canRunTerminalLogins: false }).terminalAuth).toBe(false);
    expect(switchesFromSettings({ ...DEFAULT_CLIENT_CAPABILITIES, auth: { terminal: false } }).terminalAuth).toBe(false);
  });
});
