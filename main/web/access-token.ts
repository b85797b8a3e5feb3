import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';

/** A fresh random token for one web host run (256 bits, URL-safe). */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Compare a presented token with the real one in constant time. Both are hashed first so the
 * comparison takes the same time whatever the presented length.
 */
export function tokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (!presented) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
