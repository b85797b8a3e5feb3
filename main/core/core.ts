import { CoreApi } from './api/core-api';
import { appHandlers, type CoreContext } from './api/handlers';
import { agentHandlers } from './api/agent-handlers';
import { authHandlers } from './api/auth-handlers';
import { compareService } from './api/compare-handlers';
import { qaHandlers } from './api/qa-handlers';
import { historyHandlers } from './api/history-handlers';
import { secretHandlers } from './api/secret-handlers';
import { sessionHandlers } from './api/session-handlers';
import { settingsHandlers } from './api/settings-handlers';
import { SessionManager } from './sessions/session-manager';

/** Build the core for one host process (Electron main, web host, CLI or a test). */
export function createCore(ctx: CoreContext): CoreApi {
  let core: CoreApi | undefined;
  const emit: ConstructorParameters<typeof SessionManager>[0]['emit'] = (name, payload) => core?.emit(name, payload);
  const sessions = new SessionManager({ paths: ctx.paths, host: ctx.host, emit, ...(ctx.encryptor ? { encryptor: ctx.encryptor } : {}) });
  // Compare runs start their agents through the session manager: run sessions are live sessions (panes).
  const history = historyHandlers(ctx.paths, sessions, emit, process.env, ctx.encryptor);
  const compare = compareService({ dataDir: ctx.paths.dataDir, configDir: ctx.paths.configDir, sessions, emit });
  core = new CoreApi({ ...appHandlers(ctx), ...agentHandlers(ctx.paths), ...authHandlers(sessions.auth), ...settingsHandlers(ctx.paths, emit), ...secretHandlers(ctx.paths, ctx.host, emit, ctx.encryptor), ...sessionHandlers(sessions), ...qaHandlers(sessions), ...compare.handlers, ...historyApi(history) }, async () => {
    await compare.dispose();
    await history.dispose();
    await sessions.dispose();
  }, () => sessions.releasePatches());
  return core;
}

/** The history handlers without their `dispose`. */
function historyApi(h: ReturnType<typeof historyHandlers>): Omit<ReturnType<typeof historyHandlers>, 'dispose'> {
  const { dispose: _dispose, ...handlers } = h;
  return handlers;
}
