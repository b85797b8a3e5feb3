/**
 * Workbench ids: ULID-shaped (26 Crockford base32 characters, 48-bit ms time + 80 random bits), so
 * they sort by creation time as plain strings — the history index, file names and the CLI rely on
 * that. Agent session ids are kept beside ours, never used as keys: they repeat across agents and
 * replays.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
const MAX_TIME = 2 ** 48 - 1;

/** A workbench session id (primary key everywhere). */
export type SessionId = string;
/** A workbench connection id (one agent process, one trace file). */
export type ConnectionId = string;

interface CryptoLike {
  getRandomValues<T extends Uint8Array>(array: T): T;
}

// `crypto` is a global in Node 20 and in browsers, but common/ is typed without DOM or Node.
const cryptoGlobal = (globalThis as unknown as { crypto?: CryptoLike }).crypto;

function randomChars(): number[] {
  if (!cryptoGlobal) throw new Error('crypto.getRandomValues is not available in this runtime');
  const bytes = cryptoGlobal.getRandomValues(new Uint8Array(RANDOM_CHARS));
  return Array.from(bytes, (b) => b & 31);
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32]! + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * Increments a base32 digit array in place; false on overflow. Ids made in the same millisecond
 * then still sort in creation order (the ULID "monotonic" rule).
 */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i] = digits[i]! + 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

export interface IdFactory {
  (): string;
}

/** An id generator with its own monotonic state; `now` is injectable for tests. */
export function createIdFactory(now: () => number = Date.now): IdFactory {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    let time = Math.min(Math.max(0, now()), MAX_TIME);
    if (time <= lastTime) {
      // Same (or an earlier, when the clock stepped back) millisecond: keep sorting after the last id.
      time = lastTime;
      if (!increment(lastRandom)) {
        time = lastTime + 1;
        lastRandom = randomChars();
      }
    } else {
      lastRandom = randomChars();
    }
    lastTime = time;
    return encodeTime(time) + lastRandom.map((d) => ALPHABET[d]!).join('');
  };
}

/** The process-wide generator for session and connection ids. */
export const newId: IdFactory = createIdFactory();

const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isWorkbenchId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** The creation time (ms since epoch) encoded in an id. */
export function idTime(id: string): number {
  let ms = 0;
  for (let i = 0; i < TIME_CHARS; i++) {
    const d = ALPHABET.indexOf(id[i] ?? '');
    if (d < 0) return NaN;
    ms = ms * 32 + d;
  }
  return ms;
}
