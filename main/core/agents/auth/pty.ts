/**
 * The pseudo-terminal a terminal login runs in: `@lydell/node-pty`, a native module (prebuilt
 * binaries per platform, kept out of the esbuild bundles — docs/decisions.md says why). It is
 * loaded on first use; when it cannot be loaded (a platform without a prebuilt binary, a broken
 * install, or `ACP_WORKBENCH_NO_PTY=1`) the reason is kept so the UI can say it and show the
 * command to run in the user's own terminal instead.
 */
import type * as NodePty from '@lydell/node-pty';

export type PtyModule = typeof NodePty;
export type Pty = NodePty.IPty;

export type PtyStatus = { available: true; pty: PtyModule } | { available: false; reason: string };

let loaded: Promise<PtyStatus> | undefined;

/** The PTY module, or why there is none (loaded once per process). */
export function loadPty(env: NodeJS.ProcessEnv = process.env): Promise<PtyStatus> {
  if (env.ACP_WORKBENCH_NO_PTY === '1') {
    return Promise.resolve({ available: false, reason: 'terminal logins are switched off (ACP_WORKBENCH_NO_PTY=1)' });
  }
  // `require` in the CommonJS bundles (Electron's loader finds the module unpacked from the asar);
  // a dynamic import where there is none (vitest runs the sources as ES modules).
  // A require that throws (no binary for this platform) becomes a rejection, handled below.
  const load = typeof require === 'function' ? () => new Promise<PtyModule>((resolve) => resolve(require('@lydell/node-pty') as PtyModule)) : () => import('@lydell/node-pty');
  loaded ??= load().then(
    (mod): PtyStatus => {
      const pty = ((mod as { default?: PtyModule }).default ?? mod) as PtyModule;
      return typeof pty.spawn === 'function' ? { available: true, pty } : { available: false, reason: '@lydell/node-pty has no spawn function' };
    },
    (err: unknown): PtyStatus => ({
      available: false,
      reason: `the terminal module (@lydell/node-pty) could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    }),
  );
  return loaded;
}
