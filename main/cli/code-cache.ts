import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { withDefaultHeapGrowth } from '../core/acp/heap-growth-state';

/**
 * Runs a CommonJS bundle through V8's code cache (issue #11, start-up): the first run compiles it
 * and, at exit (or after a few seconds for long-lived commands), saves what V8 compiled to
 * `<cache dir>/<name>-<node>-<arch>-<size>-<mtime>.v8cache`; later runs start from that instead of
 * parsing and compiling the 1.7 MiB bundle again. Node 20 has no built-in compile cache for
 * CommonJS. Every failure (no cache dir, a read-only home, a cache V8 rejects after an update)
 * falls back to compiling as usual: the cache only ever saves time.
 */
export function runWithCodeCache(file: string, cacheDir: string | null): void {
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const info = statSync(file);
  const cacheFile = cacheDir ? join(cacheDir, cacheName(file, info.size, info.mtimeMs)) : null;
  let cached: Buffer | undefined;
  try {
    if (cacheFile) cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
  if (cacheFile && (!cached || script.cachedDataRejected)) saveLater(script, cacheFile);
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: unknown, filename: string, dirname: string) => void;
  const mod = new Module(file);
  mod.filename = file;
  const require = createRequire(file);
  wrapper.call(mod.exports, mod.exports, require, mod, file, dirname(file));
}

/** One cache file per bundle build, Node version and architecture (V8 also checks them itself). */
export function cacheName(file: string, size: number, mtimeMs: number): string {
  return `${basename(file, '.cjs')}-${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}.v8cache`;
}

/** Where the cache lives: ACP_WORKBENCH_CACHE_DIR, else the platform's per-user cache folder. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ACP_WORKBENCH_CACHE_DIR) return env.ACP_WORKBENCH_CACHE_DIR;
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'acp-workbench', 'Cache') : null;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'acp-workbench');
  const base = env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  return base ? join(base, 'acp-workbench') : null;
}

const SAVE_AFTER_MS = 3000;

/** Saves the cache once: at exit, or after a few seconds for commands that keep running (`web`). */
function saveLater(script: Script, cacheFile: string): void {
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    try {
      // Stamped with the flags of a fresh start, or every later start would reject it.
      // node:v8 only now: loading it at every start costs more than this rare save.
      const data = withDefaultHeapGrowth(() => script.createCachedData(), (flags) => (require('node:v8') as typeof import('node:v8')).setFlagsFromString(flags));
      mkdirSync(dirname(cacheFile), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, data);
      renameSync(tmp, cacheFile); // atomic: a concurrent start reads the old file or the new one
      removeStale(cacheFile);
    } catch {
      // Best effort: the next start compiles again.
    }
  };
  process.once('exit', save);
  setTimeout(save, SAVE_AFTER_MS).unref();
}

/** Caches of earlier builds of the same bundle are removed when a new one is written. */
function removeStale(current: string): void {
  const prefix = basename(current).split('-')[0]!;
  for (const name of readdirSync(dirname(current))) {
    if (name !== basename(current) && name.startsWith(`${prefix}-`) && name.endsWith('.v8cache')) {
      try {
        unlinkSync(join(dirname(current), name));
      } catch {
        // Another process may have removed it already.
      }
    }
  }
}
