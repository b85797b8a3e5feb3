import type { AppInfo } from '../../../common/api/app-types';
import { ApiError } from '../../../common/api/errors';
import type { SecretsListResult } from '../../../common/api/settings-types';
import { buildCatalog, findAgent } from '../agents/catalog/catalog';
import { plainEncryptor, SecretStore, SecretStoreError, type Encryptor } from '../agents/secrets';
import { loadSettings } from '../agents/settings';
import type { WorkbenchPaths } from '../paths';
import type { EventSink } from './core-api';
import type { RequestHandlers } from './handlers';

type SecretRequests = Pick<RequestHandlers, 'secrets/list' | 'secrets/set' | 'secrets/delete'>;

/** One line for the settings screen: are secrets encrypted here, and if not, why. */
export function protectionSummary(store: SecretStore, host: AppInfo['host']): string {
  const p = store.protection();
  if (p.encrypted) return `Secrets are stored encrypted by the OS keychain (${p.method}) in ${p.file}.`;
  const why = host === 'electron' ? 'this system offers the app none (e.g. Linux without a keyring)' : `the ${host === 'web' ? 'web host' : host} cannot use the OS keychain`;
  return `Not encrypted: no keychain — ${why}. Values are stored in ${p.file}, readable only by your user (mode 0600).`;
}

/**
 * The secret store by names: list, set, delete. Values go in and never come back out — every
 * answer and the `secrets/changed` event carry names and how each is stored, nothing else.
 */
export function secretHandlers(paths: WorkbenchPaths, host: AppInfo['host'], emit: EventSink, encryptor: Encryptor = plainEncryptor): SecretRequests {
  const open = async () => {
    try {
      return await SecretStore.open(paths.dataDir, encryptor);
    } catch (err) {
      throw new ApiError({ code: 'not_available', message: (err as Error).message });
    }
  };
  const listing = (store: SecretStore, agentId?: string): SecretsListResult => {
    const ids = agentId ? [agentId] : store.agentIds();
    const p = store.protection();
    return {
      agents: Object.fromEntries(ids.map((id) => [id, store.list(id)])),
      protection: { encrypted: p.encrypted, method: p.method, summary: protectionSummary(store, host) },
    };
  };
  const knownAgent = async (agentId: unknown): Promise<string> => {
    if (typeof agentId !== 'string' || !agentId) throw new ApiError({ code: 'bad_params', message: 'missing agentId: the agent the secret belongs to' });
    const { settings } = await loadSettings(paths.configDir);
    const agent = findAgent(buildCatalog(settings), agentId);
    if (!agent) throw new ApiError({ code: 'bad_params', message: `no agent has the id "${agentId}"`, hint: 'Pick an agent from the catalog.' });
    return agent.id;
  };
  /** An alias (`claude`) lists the agent's own id (`claude-acp`); an id not in the catalog (a removed agent) stays as given. */
  const canonical = async (agentId: string): Promise<string> => {
    const { settings } = await loadSettings(paths.configDir);
    return findAgent(buildCatalog(settings), agentId)?.id ?? agentId;
  };
  const changed = (store: SecretStore) => emit('secrets/changed', listing(store));
  return {
    'secrets/list': async (p) => listing(await open(), p?.agentId ? await canonical(p.agentId) : undefined),
    'secrets/set': async (p) => {
      const agentId = await knownAgent(p?.agentId);
      if (typeof p.value !== 'string' || p.value === '') throw new ApiError({ code: 'bad_params', message: `the value of ${String(p.name)} is empty`, hint: 'Paste the key, or delete the secret instead.' });
      const store = await open();
      try {
        await store.set(agentId, typeof p.name === 'string' ? p.name.trim() : String(p.name), p.value);
      } catch (err) {
        if (err instanceof SecretStoreError) throw new ApiError({ code: 'bad_params', message: err.message });
        throw err;
      }
      changed(store);
      return listing(store, agentId);
    },
    'secrets/delete': async (p) => {
      const agentId = await knownAgent(p?.agentId);
      if (typeof p.name !== 'string' || !p.name) throw new ApiError({ code: 'bad_params', message: 'missing name: the secret to delete' });
      const store = await open();
      if (!(await store.delete(agentId, p.name))) throw new ApiError({ code: 'not_found', message: `${agentId} has no secret named ${String(p.name)}` });
      changed(store);
      return listing(store, agentId);
    },
  };
}
