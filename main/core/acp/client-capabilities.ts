/**
 * The client capabilities we advertise in `initialize`: exactly what the workbench implements,
 * each switchable off per connection (QA, or agents that misbehave with one — gemini cannot
 * create a file when a read answers with an error, so users turn fs reads off for it).
 * Capabilities are promises: an agent may only call what we advertised.
 */
import type { ClientCapabilities } from '@agentclientprotocol/sdk/unstable';

export interface ClientCapabilitySwitches {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
  /** `session.configOptions.boolean`: we render boolean config options as toggles. */
  booleanConfigOptions: boolean;
  /** Terminal-type auth methods: on only where the host can run a login in a PTY (the app, not the CLI). */
  terminalAuth: boolean;
  /** Elicitation forms: on where a UI renders them (the app), off where nobody could answer (the CLI). */
  elicitationForm: boolean;
  /** Elicitation URLs the user agrees to open (same rule). */
  elicitationUrl: boolean;
}

/** The capabilities a user or a recorded session may switch per launch (`--capability`, a withholding restored on resume). */
export type SwitchableCapability = 'readTextFile' | 'writeTextFile' | 'terminal';
export type CapabilityChoice = Partial<Pick<ClientCapabilitySwitches, SwitchableCapability>>;

export const DEFAULT_CAPABILITY_SWITCHES: ClientCapabilitySwitches = {
  readTextFile: true,
  writeTextFile: true,
  terminal: true,
  booleanConfigOptions: true,
  terminalAuth: false,
  elicitationForm: false,
  elicitationUrl: false,
};

export function clientCapabilities(switches: ClientCapabilitySwitches): ClientCapabilities {
  const caps: ClientCapabilities = {
    fs: { readTextFile: switches.readTextFile, writeTextFile: switches.writeTextFile },
    terminal: switches.terminal,
  };
  if (switches.booleanConfigOptions) caps.session = { configOptions: { boolean: {} } };
  if (switches.terminalAuth) {
    caps.auth = { terminal: true };
    // The older Zed convention for the same promise; agents predating auth.terminal look for it.
    caps._meta = { 'terminal-auth': true };
  }
  if (switches.elicitationForm || switches.elicitationUrl) {
    caps.elicitation = { ...(switches.elicitationForm ? { form: {} } : {}), ...(switches.elicitationUrl ? { url: {} } : {}) };
  }
  return caps;
}

/** Which client method each switch gates; a request for a switched-off one is refused and recorded. */
export function clientMethodAllowed(method: string, switches: ClientCapabilitySwitches): boolean {
  if (method === 'fs/read_text_file') return switches.readTextFile;
  if (method === 'fs/write_text_file') return switches.writeTextFile;
  if (method.startsWith('terminal/')) return switches.terminal;
  if (method === 'elicitation/create') return switches.elicitationForm || switches.elicitationUrl;
  return true;
}
