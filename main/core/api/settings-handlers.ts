import type { SettingsView } from '../../../common/api/settings-types';
import { expandHome } from '../agents/launch';
import { loadSettings, SettingsError, updateSettingsFile, type LoadedSettings } from '../agents/settings';
import { applySettingsUpdate, checkSettingsUpdate } from '../agents/settings-update';
import type { WorkbenchPaths } from '../paths';
import type { EventSink } from './core-api';
import type { RequestHandlers } from './handlers';

type SettingsRequests = Pick<RequestHandlers, 'settings/get' | 'settings/update'>;

export function settingsView(loaded: LoadedSettings, env: NodeJS.ProcessEnv = process.env): SettingsView {
  const s = loaded.settings;
  return {
    file: loaded.file,
    exists: loaded.exists,
    values: {
      defaultAgent: s.defaultAgent ?? null,
      defaultFolder: s.defaultFolder ?? null,
      permissionPolicy: s.permissionPolicy,
      theme: s.theme,
      clientCapabilities: structuredClone(s.clientCapabilities),
      mcpServers: structuredClone(s.mcpServers),
    },
    defaultFolderResolved: s.defaultFolder ? expandHome(s.defaultFolder, env) : null,
    problems: loaded.problems.map((p) => ({ path: p.path, message: p.message, severity: p.severity })),
  };
}

/**
 * `settings/get` and `settings/update` over `<configDir>/settings.json`. Updates are checked per
 * field first, then written one at a time (a second update waits for the first), and announced
 * with `settings/changed` so every window — and the app's theme — follows.
 */
export function settingsHandlers(paths: WorkbenchPaths, emit: EventSink, env: NodeJS.ProcessEnv = process.env): SettingsRequests {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    'settings/get': async () => settingsView(await loadSettings(paths.configDir), env),
    'settings/update': (params) =>
      serial(async () => {
        const current = await loadSettings(paths.configDir);
        const errors = checkSettingsUpdate(params, current.settings, env);
        if (errors.length) return { saved: false as const, errors, view: settingsView(current, env) };
        try {
          const { loaded } = await updateSettingsFile(paths.configDir, (raw, settings) => applySettingsUpdate(raw, params, settings));
          const view = settingsView(loaded, env);
          emit('settings/changed', { view });
          return { saved: true as const, view };
        } catch (err) {
          if (!(err instanceof SettingsError)) throw err;
          // The file has errors of its own (or the change would add one): say which, where.
          const fields = err.problems.length ? err.problems.map((p) => ({ field: p.path, message: `${p.file}: ${p.path || '(top level)'}: ${p.message}` })) : [{ field: '', message: err.message }];
          return { saved: false as const, errors: [{ field: '', message: err.message.split('\n')[0]! }, ...fields], view: settingsView(await loadSettings(paths.configDir), env) };
        }
      }),
  };
}
