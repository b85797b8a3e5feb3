import type { ClientCapabilitySwitches } from '../acp/client-capabilities';
import type { ClientCapabilitySettings } from './types';

/** Settings' capability shape → the connection's switches (what `initialize` advertises). */
export function switchesFromSettings(c: ClientCapabilitySettings): Partial<ClientCapabilitySwitches> {
  return { readTextFile: c.fs.readTextFile, writeTextFile: c.fs.writeTextFile, terminal: c.terminal, terminalAuth: c.auth.terminal };
}
