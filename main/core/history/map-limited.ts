/**
 * `Promise.all(items.map(fn))` with at most `limit` calls running at a time, results in the items'
 * order. The snippets of a page of hits are read this way (history-store.ts): each reading holds a
 * read buffer (snippets.ts), and twenty at once held twenty buffers of megabytes.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}
