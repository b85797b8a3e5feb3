import { promises as fsp, constants as fsc } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Decides whether an agent-supplied path may be touched: the path must be absolute, well-formed and
 * its real location (every existing ancestor's symlinks resolved) must lie inside one of the
 * session's roots (its cwd and additional directories, themselves realpath'd). Shared by the fs
 * handler and the terminal handler (`terminal/create.cwd`).
 */

/** The folders one session may touch; paths are as the session was created with them. */
export interface SessionRoots {
  cwd: string;
  additionalDirectories?: readonly string[] | null;
}

/** A fixed set of roots, or a lookup per ACP session id (undefined = unknown session). */
export type RootsProvider = SessionRoots | ((sessionId: string) => SessionRoots | undefined);

export type PathRefusalReason =
  | 'not_a_string'
  | 'empty'
  | 'nul_byte'
  | 'relative'
  | 'windows_path'
  | 'unc_path'
  | 'too_long'
  | 'outside_root'
  | 'no_roots'
  | 'unknown_session'
  | 'symlink'
  | 'dangling_symlink'
  | 'symlink_loop'
  | 'changed_during_check'
  | 'hard_link'
  | 'not_a_file'
  | 'not_a_directory'
  | 'not_found'
  | 'too_large'
  | 'permission_denied'
  | 'io_error';

/** A path was refused; `reason` is stable and machine-readable, the message is for people. */
export class PathRefusal extends Error {
  override readonly name = 'PathRefusal';
  constructor(
    readonly reason: PathRefusalReason,
    readonly path: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Linux PATH_MAX includes the terminating NUL; NAME_MAX is per component. Bytes, not chars. */
export const MAX_PATH_BYTES = 4095;
export const MAX_NAME_BYTES = 255;

export function resolveRootsProvider(provider: RootsProvider, sessionId: string): SessionRoots {
  const roots = typeof provider === 'function' ? provider(sessionId) : provider;
  if (!roots) {
    throw new PathRefusal('unknown_session', '', `Unknown session ${JSON.stringify(sessionId)}: it has no folders`, {
      sessionId,
    });
  }
  return roots;
}

/**
 * Syntax checks that need no file system. Windows-looking paths are refused on POSIX by name:
 * `C:\x` would otherwise be a relative path and `\\server\share` a file name with backslashes,
 * both silently landing somewhere the agent did not mean.
 */
export function checkPathSyntax(p: unknown, platform: NodeJS.Platform = process.platform): string {
  if (typeof p !== 'string') throw new PathRefusal('not_a_string', String(p), 'The path must be a string');
  if (p.length === 0) throw new PathRefusal('empty', p, 'The path is empty');
  if (p.includes('\0')) throw new PathRefusal('nul_byte', p, 'The path contains a NUL byte');
  if (Buffer.byteLength(p) > MAX_PATH_BYTES) {
    throw new PathRefusal('too_long', p, `The path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  const p_ = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'win32') {
    if (/^[\\/]{2}/.test(p)) throw new PathRefusal('unc_path', p, `UNC and device paths are not accepted: ${p}`);
    if (!/^[A-Za-z]:[\\/]/.test(p)) throw new PathRefusal('relative', p, `The path must be absolute: ${p}`);
  } else {
    if (/^\\\\/.test(p)) throw new PathRefusal('unc_path', p, `A Windows UNC path is not a path on this machine: ${p}`);
    if (/^[A-Za-z]:/.test(p) || /^\\/.test(p)) {
      throw new PathRefusal('windows_path', p, `A Windows path is not a path on this machine: ${p}`);
    }
    if (!p_.isAbsolute(p)) throw new PathRefusal('relative', p, `The path must be absolute: ${p}`);
  }
  for (const part of p.split(platform === 'win32' ? /[\\/]/ : '/')) {
    if (Buffer.byteLength(part) > MAX_NAME_BYTES) {
      throw new PathRefusal('too_long', p, `A path component is longer than ${MAX_NAME_BYTES} bytes`);
    }
  }
  // `..` is resolved lexically here; the containment check below runs on the real path, so an
  // escape by `..` is refused as outside_root like any other.
  return p_.normalize(p);
}

/** Realpath every root; roots that do not exist are dropped (nothing can be inside them). */
export async function realRoots(roots: SessionRoots): Promise<string[]> {
  const all = [roots.cwd, ...(roots.additionalDirectories ?? [])];
  const out: string[] = [];
  for (const r of all) {
    if (typeof r !== 'string' || !path.isAbsolute(r)) continue;
    try {
      const real = await fsp.realpath(r);
      if (!out.includes(real)) out.push(real);
    } catch {
      // A root that vanished grants nothing.
    }
  }
  return out;
}

export function isInside(child: string, root: string, platform: NodeJS.Platform = process.platform): boolean {
  const p_ = platform === 'win32' ? path.win32 : path.posix;
  const fold = (s: string) => (platform === 'win32' ? s.toLowerCase() : s);
  const rel = p_.relative(fold(root), fold(child));
  return rel === '' || (!rel.startsWith('..' + p_.sep) && rel !== '..' && !p_.isAbsolute(rel));
}

export function rootContaining(real: string, roots: readonly string[]): string | undefined {
  // Longest root first so a nested additional directory is reported as the matching root.
  return [...roots].sort((a, b) => b.length - a.length).find((r) => isInside(real, r));
}

export interface ResolvedPath {
  /** The path as the agent sent it. */
  requested: string;
  /** Real location: existing ancestors realpath'd, missing tail appended. */
  real: string;
  /** The (real) root that contains it. */
  root: string;
  /** All real roots of the session, for error messages. */
  roots: string[];
  /** True when the whole path exists (the final component was resolved too). */
  exists: boolean;
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Map an errno from a path operation to a refusal; unknown errors keep their message. */
export function refusalFromErrno(err: unknown, p: string, what: string): PathRefusal {
  switch (errnoOf(err)) {
    case 'ENOENT':
      return new PathRefusal('not_found', p, `${what}: no such file or directory: ${p}`);
    case 'ELOOP':
      return new PathRefusal('symlink', p, `${what}: a symbolic link is in the way: ${p}`);
    case 'ENOTDIR':
      return new PathRefusal('not_a_directory', p, `${what}: a component of the path is not a directory: ${p}`);
    case 'EISDIR':
      return new PathRefusal('not_a_file', p, `${what}: is a directory: ${p}`);
    case 'EACCES':
    case 'EPERM':
      return new PathRefusal('permission_denied', p, `${what}: permission denied: ${p}`);
    case 'ENAMETOOLONG':
      return new PathRefusal('too_long', p, `${what}: name too long: ${p}`);
    default:
      return new PathRefusal('io_error', p, `${what}: ${(err as Error)?.message ?? String(err)}`, {
        code: errnoOf(err),
      });
  }
}

/**
 * Realpath of a path that may not exist yet: the deepest existing ancestor is realpath'd and the
 * missing tail appended. A dangling symlink anywhere is refused because creating through it would
 * land wherever it points.
 */
async function realpathAllowingMissing(abs: string): Promise<{ real: string; exists: boolean }> {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = await fsp.realpath(cur);
      return { real: tail.length ? path.join(real, ...tail) : real, exists: tail.length === 0 };
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ELOOP') throw new PathRefusal('symlink_loop', abs, `Symbolic link loop in ${abs}`);
      if (code !== 'ENOENT') throw refusalFromErrno(err, abs, 'Cannot resolve the path');
      const isLink = await fsp.lstat(cur).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (isLink) {
        throw new PathRefusal('dangling_symlink', abs, `${cur} is a symbolic link to something that does not exist`);
      }
      const parent = path.dirname(cur);
      if (parent === cur) throw refusalFromErrno(err, abs, 'Cannot resolve the path');
      tail.unshift(path.basename(cur));
      cur = parent;
    }
  }
}

/** Full check of an agent path against a session's roots; throws PathRefusal. */
export async function resolveInsideRoots(p: unknown, roots: SessionRoots): Promise<ResolvedPath> {
  const normal = checkPathSyntax(p);
  const real = await realRoots(roots);
  if (real.length === 0) {
    throw new PathRefusal('no_roots', normal, 'The session has no existing folder to work in', { roots: [] });
  }
  const resolved = await realpathAllowingMissing(normal);
  const root = rootContaining(resolved.real, real);
  if (!root) {
    const via = resolved.real !== normal ? ` (it resolves to ${resolved.real})` : '';
    throw new PathRefusal(
      'outside_root',
      normal,
      `${normal} is outside the session's folders${via}; allowed: ${real.join(', ')}`,
      { realPath: resolved.real, roots: real },
    );
  }
  return { requested: p as string, real: resolved.real, root, roots: real, exists: resolved.exists };
}

// ---------------------------------------------------------------------------------------------
// Opening what was checked. Between the check above and the open, anything running as the user
// (including the agent's own shell) can swap a component for a symlink. What protects us:
//
// - On Linux, `/proc/self/fd/<n>` names exactly the inode behind an open descriptor. We open the
//   root as a directory, then walk down one component at a time through `/proc/self/fd/<dir>/<name>`
//   with O_NOFOLLOW: that is openat(2) without Node exposing it. Every step is pinned to the inode we
//   already hold, no symlink is followed anywhere, so a swap makes the walk fail instead of escape.
//   Missing directories are created by mkdir through the same pinned parent.
// - Elsewhere (macOS, Windows) we open the checked real path with O_NOFOLLOW (protects the final
//   component) and then re-resolve the path and compare device+inode with the open descriptor; a
//   swap of a middle component between the two is detected unless it is swapped back in between.
//   Nothing is written before that verification, but an empty file or directory could be created
//   outside the roots in that window.
// ---------------------------------------------------------------------------------------------

const O_NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const O_DIRECTORY = fsc.O_DIRECTORY ?? 0;
// A FIFO opened for reading would block forever; non-blocking open lets fstat refuse it instead.
const O_NONBLOCK = fsc.O_NONBLOCK ?? 0;

let procFdUsable: boolean | undefined;
export async function canUseProcFd(): Promise<boolean> {
  if (procFdUsable === undefined) {
    procFdUsable =
      process.platform === 'linux' &&
      (await fsp.readlink('/proc/self/fd/0').then(
        () => true,
        () => false,
      ));
  }
  return procFdUsable;
}

export interface OpenOptions {
  /** Create missing parent directories and the file itself. */
  create: boolean;
  /** Open for writing too. */
  write: boolean;
  /** Force the portable (non-/proc) strategy; for tests. */
  portable?: boolean;
  /** Test seam to simulate a swap racing with the open; runs after the check, before any open. */
  afterCheck?: (checked: ResolvedPath) => Promise<void> | void;
}

export interface OpenedFile {
  handle: FileHandle;
  created: boolean;
}

/**
 * Open a file previously checked by resolveInsideRoots, without following any symlink that appeared
 * since. The caller must fstat the handle for type/size/link checks and close it.
 */
export async function openChecked(target: ResolvedPath, opts: OpenOptions): Promise<OpenedFile> {
  await opts.afterCheck?.(target);
  if (!opts.portable && (await canUseProcFd())) return openViaProcFd(target, opts);
  return openPortable(target, opts);
}

async function openViaProcFd(target: ResolvedPath, opts: OpenOptions): Promise<OpenedFile> {
  const parts = path.relative(target.root, target.real).split(path.sep).filter(Boolean);
  const name = parts.pop();
  if (name === undefined) throw new PathRefusal('not_a_file', target.requested, `${target.requested} is a folder`);
  let dir = await fsp.open(target.root, fsc.O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((err: unknown) => {
    throw refusalFromErrno(err, target.requested, 'Cannot open the session folder');
  });
  try {
    // The root itself may have been swapped between realpath and open.
    const rootNow = await fsp.readlink(`/proc/self/fd/${dir.fd}`);
    if (rootNow !== target.root) {
      throw new PathRefusal('changed_during_check', target.requested, `The session folder moved during the check`);
    }
    for (const part of parts) {
      const next = await openDirAt(dir, part, opts.create, target.requested);
      await dir.close();
      dir = next;
    }
    return await openFileAt(dir, name, opts, target.requested);
  } finally {
    await dir.close().catch(() => undefined);
  }
}

async function openDirAt(dir: FileHandle, name: string, create: boolean, requested: string): Promise<FileHandle> {
  const at = `/proc/self/fd/${dir.fd}/${name}`;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fsp.open(at, fsc.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ENOENT' && create && attempt < 2) {
        // mkdir never follows a symlink in its last component: EEXIST just means someone raced us.
        await fsp.mkdir(at).catch((e: unknown) => {
          if (errnoOf(e) !== 'EEXIST') throw refusalFromErrno(e, requested, 'Cannot create the folder');
        });
        continue;
      }
      if (code === 'ELOOP' || code === 'ENOTDIR') {
        throw new PathRefusal('changed_during_check', requested, `${name} in ${requested} changed into a link or file during the check`);
      }
      throw refusalFromErrno(err, requested, 'Cannot open the folder');
    }
  }
}

async function openFileAt(dir: FileHandle, name: string, opts: OpenOptions, requested: string): Promise<OpenedFile> {
  const at = `/proc/self/fd/${dir.fd}/${name}`;
  const mode = (opts.write ? fsc.O_RDWR : fsc.O_RDONLY) | O_NOFOLLOW | O_NONBLOCK;
  for (let attempt = 0; ; attempt++) {
    try {
      return { handle: await fsp.open(at, mode), created: false };
    } catch (err) {
      if (errnoOf(err) === 'ENOENT' && opts.create && attempt < 2) {
        try {
          // O_EXCL: we only report "created" (old text null) for a file nobody else made meanwhile.
          return { handle: await fsp.open(at, mode | fsc.O_CREAT | fsc.O_EXCL, 0o666), created: true };
        } catch (e) {
          if (errnoOf(e) === 'EEXIST') continue;
          throw openError(e, requested);
        }
      }
      throw openError(err, requested);
    }
  }
}

function openError(err: unknown, requested: string): PathRefusal {
  if (errnoOf(err) === 'ELOOP') {
    return new PathRefusal('symlink', requested, `${requested} is a symbolic link (it appeared after the check); not followed`);
  }
  return refusalFromErrno(err, requested, 'Cannot open the file');
}

async function openPortable(target: ResolvedPath, opts: OpenOptions): Promise<OpenedFile> {
  let created = false;
  if (opts.create) {
    await fsp.mkdir(path.dirname(target.real), { recursive: true }).catch((err: unknown) => {
      throw refusalFromErrno(err, target.requested, 'Cannot create the folder');
    });
  }
  const mode = (opts.write ? fsc.O_RDWR : fsc.O_RDONLY) | O_NOFOLLOW | O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await fsp.open(target.real, mode);
  } catch (err) {
    if (!(errnoOf(err) === 'ENOENT' && opts.create)) throw openError(err, target.requested);
    handle = await fsp.open(target.real, mode | fsc.O_CREAT | fsc.O_EXCL, 0o666).catch((e: unknown) => {
      throw openError(e, target.requested);
    });
    created = true;
  }
  try {
    const [again, viaPath, viaFd] = await Promise.all([
      fsp.realpath(target.real),
      fsp.stat(target.real),
      handle.stat(),
    ]);
    if (again !== target.real || viaPath.ino !== viaFd.ino || viaPath.dev !== viaFd.dev) {
      throw new PathRefusal('changed_during_check', target.requested, `${target.requested} changed during the check`);
    }
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err instanceof PathRefusal ? err : refusalFromErrno(err, target.requested, 'Cannot verify the file');
  }
  return { handle, created };
}
