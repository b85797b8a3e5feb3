/**
 * Monaco on demand: the only door to `monaco-setup.ts`, through a dynamic import (its own chunk,
 * fetched the first time a diff is shown). Also the window's pool of live diff editors.
 */
import { loadOnce } from '../load-once';
import { LeasePool } from './lease-pool';

/** Load Monaco once; later calls get the same promise. A failed load may be retried. */
export const loadMonaco = loadOnce(() => import('./monaco-setup'));

/** At most this many Monaco diff editors are alive in the window (two editors + two models each). */
export const MAX_LIVE_DIFF_EDITORS = 3;

/** The window's diff editors. */
export const diffEditorPool = new LeasePool(MAX_LIVE_DIFF_EDITORS);
