/**
 * xterm.js on demand, like Monaco: its own chunk (with its CSS), fetched the first time a terminal
 * login is shown. A failed load may be retried.
 */
type XtermSetup = typeof import('./xterm-setup');

let loading: Promise<XtermSetup> | null = null;

export function loadXterm(): Promise<XtermSetup> {
  if (!loading) {
    loading = import('./xterm-setup').catch((err: unknown) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}
