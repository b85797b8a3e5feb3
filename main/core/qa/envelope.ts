/**
 * What an incoming JSON object is as JSON-RPC 2.0, and what is wrong with its envelope. Computed
 * here from the message itself (not from the line tap's `problem` note), so a trace written by
 * any version, or imported from elsewhere, is judged the same way.
 */
type Json = Record<string, unknown>;

export type Shape = 'request' | 'notification' | 'response' | 'invalid';

export interface Envelope {
  readonly shape: Shape;
  /** Envelope problems (not including "both result and error", which has its own rule). */
  readonly problems: readonly string[];
  /** A response carrying both `result` and `error`. */
  readonly resultAndError: boolean;
}

/**
 * The envelopes without a problem, shared: every message of a well-behaved agent has one of
 * these, so judging its envelope allocates nothing (this runs for every record of every live
 * connection). Frozen: nobody may write into a shared one.
 */
const NO_PROBLEMS: readonly string[] = Object.freeze([]);
const CLEAN: Readonly<Record<'request' | 'notification' | 'response', Envelope>> = {
  request: Object.freeze({ shape: 'request', problems: NO_PROBLEMS, resultAndError: false }),
  notification: Object.freeze({ shape: 'notification', problems: NO_PROBLEMS, resultAndError: false }),
  response: Object.freeze({ shape: 'response', problems: NO_PROBLEMS, resultAndError: false }),
};

const envelope = (shape: 'request' | 'notification' | 'response', problems: string[] | undefined, resultAndError = false): Envelope =>
  problems === undefined && !resultAndError ? CLEAN[shape] : { shape, problems: problems ?? [], resultAndError };

const isId = (v: unknown) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

export function envelopeOf(msg: Json): Envelope {
  // Made only for a message with a problem: the usual one takes a shared envelope (CLEAN).
  let problems: string[] | undefined;
  if (msg.jsonrpc !== '2.0') (problems ??= []).push('"jsonrpc" is not "2.0"');
  if ('method' in msg) {
    if (typeof msg.method !== 'string') return { shape: 'invalid', problems: [...(problems ?? []), '"method" is not a string'], resultAndError: false };
    if ('params' in msg && (typeof msg.params !== 'object' || msg.params === null)) (problems ??= []).push('"params" is not an object or array');
    if (!('id' in msg)) return envelope('notification', problems);
    if (!isId(msg.id)) (problems ??= []).push('"id" is not a string, an integer or null');
    else if (msg.id === null) (problems ??= []).push('a request with a null "id"');
    return envelope('request', problems);
  }
  if (!('id' in msg)) return { shape: 'invalid', problems: [...(problems ?? []), 'neither a request, a notification nor a response'], resultAndError: false };
  if (!isId(msg.id)) (problems ??= []).push('"id" is not a string, an integer or null');
  const hasResult = Object.hasOwn(msg, 'result');
  const hasError = Object.hasOwn(msg, 'error');
  if (!hasResult && !hasError) (problems ??= []).push('a response with neither "result" nor "error"');
  if (hasError && !hasResult) {
    const error = msg.error as Json | null;
    if (typeof error !== 'object' || error === null || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      (problems ??= []).push('"error" needs an integer "code" and a string "message"');
    }
  }
  if (msg.id === null && hasResult && !hasError) (problems ??= []).push('a result with a null "id"');
  return envelope('response', problems, hasResult && hasError);
}

/** Map key of a JSON-RPC id (ids 1 and "1" differ). */
export const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;
