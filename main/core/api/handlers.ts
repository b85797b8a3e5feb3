import type { ParamsOf, RequestName, ResultOf } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/errors';
import type { AppInfo } from '../../../common/api/app-types';
import type { Encryptor } from '../agents/secrets';
import { folderCompletions } from '../fs/folder-completions';
import type { WorkbenchPaths } from '../paths';

/** One handler per contract request: the compiler fails when a request has none. */
export type RequestHandlers = {
  [N in RequestName]: (params: ParamsOf<N>) => Promise<ResultOf<N>> | ResultOf<N>;
};

export interface CoreContext {
  host: AppInfo['host'];
  paths: WorkbenchPaths;
  /** Extra runtime versions to report (the Electron shell adds electron/chrome). */
  runtime?: Record<string, string>;
  /** How secrets are encrypted in this host (the Electron shell plugs in safeStorage); default: not encrypted. */
  encryptor?: Encryptor;
  /** The host's native folder picker (the Electron shell's dialog): the folder chosen, or null when cancelled. */
  pickFolder?: (start: string | undefined) => Promise<string | null>;
}

export function appInfo(ctx: CoreContext): AppInfo {
  return {
    name: 'ACP Workbench',
    version: __WORKBENCH_VERSION__,
    host: ctx.host,
    runtime: { node: process.versions.node, ...ctx.runtime },
    platform: process.platform,
    dataDir: ctx.paths.dataDir,
    configDir: ctx.paths.configDir,
    canPickFolder: ctx.pickFolder !== undefined,
  };
}

export function appHandlers(ctx: CoreContext): Pick<RequestHandlers, 'app/info' | 'app/ping' | 'app/pick-folder' | 'fs/folders'> {
  return {
    'app/pick-folder': async (params) => {
      if (!ctx.pickFolder) throw new ApiError({ code: 'not_available', message: 'This host has no folder picker: type the folder (its field suggests folders as you type).' });
      const start = typeof params?.start === 'string' && params.start.trim() ? params.start : undefined;
      return { path: await ctx.pickFolder(start) };
    },
    'fs/folders': async (params) => {
      if (typeof params?.partial !== 'string') throw new ApiError({ code: 'bad_params', message: 'fs/folders needs { partial: string }' });
      return { folders: await folderCompletions(params.partial) };
    },
    'app/info': () => appInfo(ctx),
    'app/ping': (params) => {
      if (!params || typeof params.nonce !== 'string') {
        throw new ApiError({ code: 'bad_params', message: 'app/ping needs { nonce: string }' });
      }
      return { nonce: params.nonce, receivedAt: Date.now() };
    },
  };
}
