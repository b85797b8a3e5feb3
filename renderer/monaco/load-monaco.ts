/**
 * Monaco on demand: the only door to `monaco-setup.ts`, through a dynamic import (its own chunk,
 * fetched the first time a diff is shown). Also the window's pool of live diff editors.
 */
import { LeasePool } from './lease-pool';

type MonacoSetup = typeof import('./monaco-setup');

let loading: Promise<MonacoSetup> | null = null;

/** Load Monaco once; later calls get the same promise. A failed load may be retried. */
export function loadMonaco(): Promise<MonacoSetup> {
  if (!loading) {
    loading = import('./monaco-setup').catch((err: unknown) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** At most this many Monaco diff editors are alive in the window (two editors + two models each). */
export const MAX_LIVE_DIFF_EDITORS = 3;

/** The window's diff editors. */
export const diffEditorPool = new LeasePool(MAX_LIVE_DIFF_EDITORS);
