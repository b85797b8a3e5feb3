/**
 * A module fetched on demand (its own chunk, e.g. Monaco or xterm.js): loaded once, later calls
 * get the same promise; a failed load is forgotten so the next call tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      loading = load().catch((err: unknown) => {
        loading = null;
        throw err;
      });
    }
    return loading;
  };
}
