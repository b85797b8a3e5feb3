/**
 * The Content-Security-Policy of the renderer, in Electron (response header and meta tag) and in
 * the web host (response header). Agent text is untrusted: no inline or remote script, no
 * plugins, no framing, no remote connections. Monaco needs inline styles and blob: workers.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
].join('; ');

/** The header form adds what a meta tag cannot carry. */
export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;
