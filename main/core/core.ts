import { CoreApi } from './api/core-api';
import { appHandlers, type CoreContext } from './api/handlers';
import { agentHandlers } from './api/agent-handlers';
import { sessionHandlers } from './api/session-handlers';
import { SessionManager } from './sessions/session-manager';

/** Build the core for one host process (Electron main, web host, CLI or a test). */
export function createCore(ctx: CoreContext): CoreApi {
  let core: CoreApi | undefined;
  const sessions = new SessionManager({ paths: ctx.paths, host: ctx.host, emit: (name, payload) => core?.emit(name, payload) });
  core = new CoreApi({ ...appHandlers(ctx), ...agentHandlers(ctx.paths), ...sessionHandlers(sessions) }, () => sessions.dispose());
  return core;
}
