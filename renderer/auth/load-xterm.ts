/**
 * xterm.js on demand, like Monaco: its own chunk (with its CSS), fetched the first time a terminal
 * login is shown. A failed load may be retried.
 */
import { loadOnce } from '../load-once';

export const loadXterm = loadOnce(() => import('./xterm-setup'));
