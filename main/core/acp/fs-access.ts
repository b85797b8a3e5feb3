import type { FileHandle } from 'node:fs/promises';
import type {
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestError,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk/unstable';
import {
  openChecked,
  PathRefusal,
  resolveInsideRoots,
  resolveRootsProvider,
  type OpenOptions,
  type PathRefusalReason,
  type ResolvedPath,
  type RootsProvider,
} from './path-guard';
import { gateSensitiveFile, SensitiveFileRefused, type FsMethod, type SensitiveFileApprover } from './sensitive-file-gate';
import { requestError, sdk } from './sdk-runtime';

/**
 * The client side of `fs/read_text_file` and `fs/write_text_file`: real reads and writes on the
 * user's machine, confined to the session's folders (see path-guard.ts for how).
 */

export type { FsMethod };

export interface FsWrite {
  sessionId: string;
  /** As the agent sent it. */
  path: string;
  /** Where it was written after resolving symlinks of its folders. */
  realPath: string;
  /** null when the file did not exist: undo then means deleting it. */
  oldText: string | null;
  newText: string;
  /** The agent's request id, so the trace ties the write to the wire request (one file change, not two). */
  requestId?: string | number | null;
}

export interface FsRefusal {
  method: FsMethod;
  sessionId: string;
  path: string;
  reason: PathRefusalReason | 'invalid_params' | 'sensitive';
  message: string;
}

/** Per request: the agent's request id, and who approves a sensitive file (sensitive-file-gate.ts). */
export interface FsRequestContext {
  requestId?: string | number | null;
  approveSensitive?: SensitiveFileApprover;
}

export interface FsAccessListeners {
  onWrite?: (write: FsWrite) => void;
  onRefusal?: (refusal: FsRefusal) => void;
}

export interface FsAccessOptions extends FsAccessListeners {
  roots: RootsProvider;
  /** Larger files are refused for reading (and for overwriting, since their old text is kept). */
  maxFileBytes?: number;
  /** Test seams: force the portable open strategy, or act between check and open. */
  portableOpen?: boolean;
  afterCheck?: OpenOptions['afterCheck'];
}

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface Disposable {
  dispose(): void;
}

export class FsAccess {
  private readonly listeners = new Set<FsAccessListeners>();
  private readonly maxFileBytes: number;

  constructor(private readonly opts: FsAccessOptions) {
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.listeners.add({ onWrite: opts.onWrite, onRefusal: opts.onRefusal });
  }

  /** Follow writes and refusals (trace, diff/undo UI) until disposed. */
  subscribe(listeners: FsAccessListeners): Disposable {
    this.listeners.add(listeners);
    return { dispose: () => void this.listeners.delete(listeners) };
  }

  /** Without `approveSensitive`, a sensitive file is refused (nobody can approve it). */
  async readTextFile(params: ReadTextFileRequest, request: FsRequestContext = {}): Promise<ReadTextFileResponse> {
    return this.guarded('fs/read_text_file', params, async () => {
      const line = optionalCount(params.line, 'line', 1);
      const limit = optionalCount(params.limit, 'limit', 0);
      const target = await this.resolve(params);
      await gateSensitiveFile({ method: 'fs/read_text_file', sessionId: params.sessionId, path: params.path, realPath: target.real }, request.approveSensitive);
      const { handle } = await openChecked(target, this.openOptions({ create: false, write: false }));
      try {
        await this.checkRegularFile(handle, target, false);
        const text = await readAll(handle, this.maxFileBytes, target.requested);
        return { content: sliceLines(text, line, limit) };
      } finally {
        await handle.close();
      }
    });
  }

  async writeTextFile(params: WriteTextFileRequest, request: FsRequestContext = {}): Promise<WriteTextFileResponse> {
    return this.guarded('fs/write_text_file', params, async () => {
      if (typeof params.content !== 'string') throw invalid('content must be a string');
      const target = await this.resolve(params);
      await gateSensitiveFile(
        { method: 'fs/write_text_file', sessionId: params.sessionId, path: params.path, realPath: target.real, newText: params.content },
        request.approveSensitive,
      );
      const { handle, created } = await openChecked(target, this.openOptions({ create: true, write: true }));
      let oldText: string | null = null;
      try {
        if (!created) {
          await this.checkRegularFile(handle, target, true);
          oldText = await readAll(handle, this.maxFileBytes, target.requested);
        }
        // In place, through the descriptor we verified: keeps the inode, its mode and owner.
        await handle.truncate(0);
        await writeAllAt(handle, Buffer.from(params.content, 'utf8'));
      } finally {
        await handle.close();
      }
      this.emit('onWrite', {
        sessionId: params.sessionId,
        path: params.path,
        realPath: target.real,
        oldText,
        newText: params.content,
        ...(request.requestId !== undefined ? { requestId: request.requestId } : {}),
      });
      return {};
    });
  }

  private openOptions(base: Pick<OpenOptions, 'create' | 'write'>): OpenOptions {
    return { ...base, portable: this.opts.portableOpen ?? false, afterCheck: this.opts.afterCheck };
  }

  private async resolve(params: { sessionId: string; path: string }): Promise<ResolvedPath> {
    return resolveInsideRoots(params.path, resolveRootsProvider(this.opts.roots, params.sessionId));
  }

  private async checkRegularFile(handle: FileHandle, target: ResolvedPath, forWrite: boolean): Promise<void> {
    const st = await handle.stat();
    if (!st.isFile()) throw new PathRefusal('not_a_file', target.requested, `${target.requested} is not a regular file`);
    // Writing through one of several names would silently change the others, possibly outside the roots.
    if (forWrite && st.nlink > 1) {
      throw new PathRefusal('hard_link', target.requested, `${target.requested} has ${st.nlink} hard links; not writing through it`, {
        nlink: st.nlink,
      });
    }
    if (st.size > this.maxFileBytes) throw tooLarge(target.requested, st.size, this.maxFileBytes);
  }

  private async guarded<T>(
    method: FsMethod,
    params: { sessionId: string; path: string },
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const rpcError = toRequestError(method, params.path, err);
      const data = rpcError.data as { reason?: FsRefusal['reason'] } | undefined;
      this.emit('onRefusal', {
        method,
        sessionId: params.sessionId,
        path: typeof params.path === 'string' ? params.path : String(params.path),
        reason: data?.reason ?? 'io_error',
        message: rpcError.message,
      });
      throw rpcError;
    }
  }

  private emit<K extends keyof FsAccessListeners>(key: K, payload: Parameters<NonNullable<FsAccessListeners[K]>>[0]): void {
    for (const l of this.listeners) {
      try {
        (l[key] as ((p: typeof payload) => void) | undefined)?.(payload);
      } catch {
        // A broken listener must not turn a completed write into an error for the agent.
      }
    }
  }
}

class InvalidParams extends Error {}
function invalid(message: string): InvalidParams {
  return new InvalidParams(message);
}

function optionalCount(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw invalid(`${name} must be an integer >= ${min}`);
  }
  return v;
}

function tooLarge(p: string, size: number, limit: number): PathRefusal {
  return new PathRefusal('too_large', p, `${p} is ${size} bytes, more than the ${limit}-byte limit for text files`, {
    size,
    limit,
  });
}

async function readAll(handle: FileHandle, limit: number, p: string): Promise<string> {
  // Read to EOF rather than trusting st.size: the file may grow, and /proc-like files report 0.
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, total);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > limit) throw tooLarge(p, total, limit);
    chunks.push(buf.subarray(0, bytesRead));
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

async function writeAllAt(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}

/** Lines `line` (1-based) .. `line + limit - 1`, each keeping its own line ending. */
export function sliceLines(text: string, line?: number, limit?: number): string {
  const first = line ?? 1;
  let start = 0;
  for (let n = 1; n < first; n++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return '';
    start = nl + 1;
  }
  if (limit === undefined) return text.slice(start);
  let end = start;
  for (let n = 0; n < limit; n++) {
    const nl = text.indexOf('\n', end);
    if (nl < 0) return text.slice(start);
    end = nl + 1;
  }
  return text.slice(start, end);
}

function toRequestError(method: FsMethod, p: unknown, err: unknown): RequestError {
  if (err instanceof sdk().RequestError) return err;
  if (err instanceof SensitiveFileRefused) {
    return requestError(-32602, `${method} refused: ${err.message}`, { reason: 'sensitive', path: p, refusal: err.refusal, decidedBy: err.decidedBy });
  }
  if (err instanceof InvalidParams) {
    return requestError(-32602, `${method}: ${err.message}`, { reason: 'invalid_params', path: p });
  }
  if (err instanceof PathRefusal) {
    const data = { reason: err.reason, path: typeof p === 'string' ? p : err.path, ...err.details };
    if (err.reason === 'not_found') return requestError(-32002, `${method}: ${err.message}`, data);
    if (err.reason === 'io_error') return requestError(-32603, `${method}: ${err.message}`, data);
    return requestError(-32602, `${method} refused: ${err.message}`, data);
  }
  const message = err instanceof Error ? err.message : String(err);
  return requestError(-32603, `${method} failed: ${message}`, { reason: 'io_error', path: p });
}
