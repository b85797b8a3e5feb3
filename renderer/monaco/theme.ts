/**
 * The app's light/dark theme as Monaco sees it: `data-theme` on <html> when set, else the OS's
 * `prefers-color-scheme`. Both are watched, so an editor follows a theme switch while open.
 */
import { useSyncExternalStore } from 'react';
import { resolveMonacoTheme, type MonacoThemeName } from './diff-policy';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function currentMonacoTheme(): MonacoThemeName {
  const prefersDark = typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
  return resolveMonacoTheme(document.documentElement.dataset.theme, prefersDark);
}

/** Calls `listener` whenever the OS scheme or `<html data-theme>` changes; returns the unsubscribe. */
export function watchMonacoTheme(listener: () => void): () => void {
  const media = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', listener);
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    media?.removeEventListener('change', listener);
    observer.disconnect();
  };
}

/** The Monaco theme name, re-rendering on change. */
export function useMonacoTheme(): MonacoThemeName {
  return useSyncExternalStore(watchMonacoTheme, currentMonacoTheme);
}
