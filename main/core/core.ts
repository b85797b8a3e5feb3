import { CoreApi } from './api/core-api';
import { createHandlers, type CoreContext } from './api/handlers';

/** Build the core for one host process (Electron main, web host, CLI or a test). */
export function createCore(ctx: CoreContext): CoreApi {
  return new CoreApi(createHandlers(ctx));
}
