/**
 * Links in agent text are untrusted: only absolute http(s) URLs may be opened, and only after the
 * user confirms; every other scheme (javascript:, data:, file:, relative paths...) stays plain text.
 * Pure: no DOM, tested in Node.
 */

/** Whitespace and control characters browsers strip before looking at a scheme (`java\tscript:`). */
const STRIPPED = /[\u0000-\u0020\u007f-\u009f]/g;

/** The URL to open for an href, or null when it must not be opened. */
export function externalUrl(href: string | null | undefined): string | null {
  if (typeof href !== 'string') return null;
  const cleaned = href.replace(STRIPPED, '');
  if (!/^https?:\/\//i.test(cleaned)) return null;
  try {
    const url = new URL(cleaned);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

export interface OpenDeps {
  confirm: (message: string) => boolean;
  open: (url: string, target: string, features: string) => unknown;
}

/** Asks, then opens in a new window without an opener. Returns whether it opened. */
export function openExternalLink(href: string | null | undefined, deps: OpenDeps): boolean {
  const url = externalUrl(href);
  if (!url) return false;
  if (!deps.confirm(`Open this link in your browser?\n\n${url}`)) return false;
  deps.open(url, '_blank', 'noopener');
  return true;
}
