import type { ClientCapabilitySwitches } from '../acp/client-capabilities';
import type { ClientCapabilitySettings } from './types';

/**
 * Settings' capability shape → the connection's switches (what `initialize` advertises).
 * `auth.terminal` is what settings allow; a host without a terminal to show a login in (the CLI)
 * passes `canRunTerminalLogins: false`, and the app also turns it off where no PTY loads.
 */
export function switchesFromSettings(c: ClientCapabilitySettings, host: { canRunTerminalLogins: boolean } = { canRunTerminalLogins: true }): Partial<ClientCapabilitySwitches> {
  return { readTextFile: c.fs.readTextFile, writeTextFile: c.fs.writeTextFile, terminal: c.terminal, terminalAuth: c.auth.terminal && host.canRunTerminalLogins };
}
