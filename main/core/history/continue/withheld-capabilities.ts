/**
 * The client capabilities a past session was started without, read back from its trace header
 * (`clientCapabilities`, what `initialize` advertised), so that resuming or forking it onto the same
 * agent withholds them again. They were withheld for a reason — the catalog's quirk for an agent
 * (gemini cannot create files when reads go through the client), `run --capability`, a setting, QA —
 * and a resumed session that advertises them again meets the same failure. Only withholding is
 * restored: what was advertised follows the defaults, as for any new session.
 */
import type { JsonValue } from '../../../../common/trace/json';
import type { CapabilityChoice } from '../../acp/client-capabilities';

const isObject = (v: JsonValue | null | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

export function withheldCapabilities(advertised: JsonValue | null | undefined): CapabilityChoice {
  if (!isObject(advertised)) return {};
  const withheld: CapabilityChoice = {};
  const fs = advertised.fs;
  if (!isObject(fs) || fs.readTextFile !== true) withheld.readTextFile = false;
  if (!isObject(fs) || fs.writeTextFile !== true) withheld.writeTextFile = false;
  if (advertised.terminal !== true) withheld.terminal = false;
  return withheld;
}
