/**
 * When the UI's first page has been served, so the web host can load the core after it instead of
 * before it (start-up, issue #11): evaluating the core's modules holds Node's event loop for a few
 * hundred milliseconds, and a browser that asked for the page meanwhile waited all that time for
 * its HTML. Served first, the page's scripts are parsed and run in the browser while the core loads.
 *
 * `served` resolves once, at the first of:
 * - the entry HTML and every asset it names (its module script, module preloads, style sheets)
 *   have each been sent;
 * - no request started or ended for `idleMs` (nobody came yet, or the browser had the assets
 *   cached) — counted from the watch's creation;
 * - `wanted()`: something needs the core now (an API socket);
 * - `capMs` after creation, whatever else happens.
 * `stop()` ends the watch without resolving (the host closed before).
 */
export class FirstPageWatch {
  readonly served: Promise<void>;
  private readonly missing: Set<string>;
  private resolve!: () => void;
  private done = false;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly cap: ReturnType<typeof setTimeout>;

  constructor(
    assets: Iterable<string>,
    private readonly timing: { idleMs: number; capMs: number },
  ) {
    this.missing = new Set(assets);
    this.served = new Promise((resolve) => (this.resolve = resolve));
    this.cap = setTimeout(() => this.finish(), timing.capMs);
    this.cap.unref?.();
    this.restartIdle();
  }

  /** A request arrived. */
  started(): void {
    this.restartIdle();
  }

  /** The response to `path` (a URL path) was sent or abandoned. */
  ended(path: string): void {
    this.missing.delete(path === '/' ? '/index.html' : path);
    if (this.missing.size === 0) this.finish();
    else this.restartIdle();
  }

  /** Something needs what waits for the first page now. */
  wanted(): void {
    this.finish();
  }

  /** No more waiting: `served` stays pending if it has not resolved yet (the host closed). */
  stop(): void {
    this.done = true;
    if (this.idle !== undefined) clearTimeout(this.idle);
    clearTimeout(this.cap);
  }

  private restartIdle(): void {
    if (this.done) return;
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.finish(), this.timing.idleMs);
    this.idle.unref?.();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.idle !== undefined) clearTimeout(this.idle);
    clearTimeout(this.cap);
    this.resolve();
  }
}

/**
 * The URL paths of the first page: `/index.html` and what its HTML loads at once — `<script src>`,
 * `<link rel="modulepreload">` and `<link rel="stylesheet">` hrefs, relative to `/`. Lazy chunks
 * the scripts import later are not part of it.
 */
export function firstPageAssets(indexHtml: string): string[] {
  const paths = ['/index.html'];
  const add = (ref: string | undefined) => {
    if (!ref || /^[a-z][a-z0-9+.-]*:/i.test(ref)) return; // data:, http: … are not ours to serve
    paths.push(new URL(ref, 'http://host/').pathname);
  };
  for (const tag of indexHtml.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find((v) => v !== undefined);
    if (/^<script/i.test(tag)) add(attr('src'));
    else if (/^(modulepreload|stylesheet)$/i.test(attr('rel') ?? '')) add(attr('href'));
  }
  return paths;
}
