/**
 * A fast path for the `session/update` params agents send by the thousand: message, thought and
 * user chunks of plain text, and tool calls / tool call updates with diffs, text content and
 * locations. `plainSessionUpdate` says `true` only when the params are one of those shapes exactly —
 * no key it does not know, no null, every value of the right type and in range — which the full
 * validator accepts without an error or a tolerated issue (validator.ts; proven over a corpus with
 * invalid variants in plain-updates.test.ts). Anything else, however small the difference, is
 * `false`: the full validator then runs and says what is wrong, as before.
 *
 * The enums (tool kinds, statuses) are read from the schema itself, so a schema update cannot make
 * the fast path accept a value the schema refuses.
 */

type Json = Record<string, unknown>;

export interface PlainUpdateEnums {
  toolKinds: ReadonlySet<unknown>;
  toolStatuses: ReadonlySet<unknown>;
}

const UINT32_MAX = 4294967295;
const CHUNKS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);
/** Every update kind `plainSessionUpdate` can say `true` for. */
export const PLAIN_UPDATE_KINDS: readonly string[] = [...CHUNKS, 'tool_call', 'tool_call_update'];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ type: "text", text }` and nothing else. */
function plainText(v: unknown): boolean {
  if (!isObject(v)) return false;
  let n = 0;
  for (const key in v) {
    n++;
    if (key === 'type') {
      if (v.type !== 'text') return false;
    } else if (key === 'text') {
      if (typeof v.text !== 'string') return false;
    } else return false;
  }
  return n === 2;
}

/** A diff (`path`, `newText`, optional string `oldText`) or text content. */
function plainToolContent(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v.type === 'content') {
    let n = 0;
    for (const key in v) {
      n++;
      if (key !== 'type' && key !== 'content') return false;
    }
    return n === 2 && plainText(v.content);
  }
  if (v.type !== 'diff') return false;
  let hasPath = false;
  let hasNew = false;
  for (const key in v) {
    if (key === 'type') continue;
    if (key === 'path') {
      if (typeof v.path !== 'string') return false;
      hasPath = true;
    } else if (key === 'newText') {
      if (typeof v.newText !== 'string') return false;
      hasNew = true;
    } else if (key === 'oldText') {
      if (typeof v.oldText !== 'string') return false;
    } else return false;
  }
  return hasPath && hasNew;
}

/** `{ path, line? }` with a line in the uint32 range. */
function plainLocation(v: unknown): boolean {
  if (!isObject(v)) return false;
  let hasPath = false;
  for (const key in v) {
    if (key === 'path') {
      if (typeof v.path !== 'string') return false;
      hasPath = true;
    } else if (key === 'line') {
      const line = v.line;
      if (typeof line !== 'number' || !Number.isInteger(line) || line < 0 || line > UINT32_MAX) return false;
    } else return false;
  }
  return hasPath;
}

function every(v: unknown, test: (item: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const item of v) if (!test(item)) return false;
  return true;
}

/** A tool call (`tool_call`: title required) or its update: only known keys, no nulls. */
function plainToolCall(u: Json, enums: PlainUpdateEnums, titleRequired: boolean): boolean {
  let hasId = false;
  let hasTitle = false;
  for (const key in u) {
    const v = u[key];
    switch (key) {
      case 'sessionUpdate':
        break;
      case 'toolCallId':
        if (typeof v !== 'string') return false;
        hasId = true;
        break;
      case 'title':
        if (typeof v !== 'string') return false;
        hasTitle = true;
        break;
      case 'kind':
        if (!enums.toolKinds.has(v)) return false;
        break;
      case 'status':
        if (!enums.toolStatuses.has(v)) return false;
        break;
      case 'content':
        if (!every(v, plainToolContent)) return false;
        break;
      case 'locations':
        if (!every(v, plainLocation)) return false;
        break;
      default:
        return false;
    }
  }
  return hasId && (hasTitle || !titleRequired);
}

/** True: the params are certainly valid, with no issue at all. False: run the full validator. */
export function plainSessionUpdate(params: unknown, enums: PlainUpdateEnums): boolean {
  if (!isObject(params)) return false;
  let n = 0;
  for (const key in params) {
    n++;
    if (key !== 'sessionId' && key !== 'update') return false;
  }
  if (n !== 2 || typeof params.sessionId !== 'string') return false;
  const u = params.update;
  if (!isObject(u)) return false;
  const kind = u.sessionUpdate;
  if (typeof kind !== 'string') return false;
  if (CHUNKS.has(kind)) {
    let m = 0;
    for (const key in u) {
      m++;
      if (key !== 'sessionUpdate' && key !== 'content') return false;
    }
    return m === 2 && plainText(u.content);
  }
  if (kind === 'tool_call') return plainToolCall(u, enums, true);
  if (kind === 'tool_call_update') return plainToolCall(u, enums, false);
  return false;
}
