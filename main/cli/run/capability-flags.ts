/**
 * `run --capability NAME=on|off`: client capabilities switched for every agent of a run, on top of
 * what the catalog and settings say for an `--agent ID`. The names are the settings' own
 * (`agentOverrides.<id>.clientCapabilities`, docs/settings.md). The use: an agent started with
 * `--agent-cmd` that misbehaves with a capability (gemini cannot create a file when fs reads go
 * through the client) gets the same workaround the app's catalog gives it.
 */
import type { CapabilityChoice, SwitchableCapability } from '../../core/acp/client-capabilities';
import { UsageError } from '../exit-codes';

const NAMES: Record<string, SwitchableCapability> = {
  'fs.readTextFile': 'readTextFile',
  'fs.writeTextFile': 'writeTextFile',
  terminal: 'terminal',
};

const VALUES: Record<string, boolean> = { on: true, off: false, true: true, false: false };

export function parseCapabilityFlags(pairs: readonly string[]): CapabilityChoice {
  const switches: CapabilityChoice = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--capability takes NAME=on|off, got "${pair}"`);
    const name = pair.slice(0, eq);
    const key = NAMES[name];
    if (key === undefined) {
      const why = name === 'auth.terminal' ? ' (the CLI has no terminal to show a login in: it never advertises it)' : '';
      throw new UsageError(`--capability: unknown capability "${name}"${why}; known: ${Object.keys(NAMES).join(', ')}`);
    }
    const value = VALUES[pair.slice(eq + 1).toLowerCase()];
    if (value === undefined) throw new UsageError(`--capability ${name} must be on or off, got "${pair.slice(eq + 1)}"`);
    switches[key] = value;
  }
  return switches;
}
