/**
 * `_meta` key on the blocks the workbench adds to the user's first prompt when it primes a session
 * (the intro and the transcript, primer.ts): the session's title and its preview come from the
 * user's own words, not these.
 */
import { isJsonObject, type JsonObject } from '../../../../common/trace/json';

export const PRIMER_META_KEY = 'acp-workbench/primer';
export const primerMeta: JsonObject = { [PRIMER_META_KEY]: true };

export function isPrimerBlock(block: JsonObject): boolean {
  return isJsonObject(block._meta) && block._meta[PRIMER_META_KEY] === true;
}
