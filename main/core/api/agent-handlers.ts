import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../common/api/errors';
import type { CatalogAgentView, CustomAgentInputView } from '../../../common/api/session-api-types';
import { buildCatalog } from '../agents/catalog/catalog';
import type { CustomAgentSettings } from '../agents/settings-schema';
import { addCustomAgent, duplicateCustomAgent, editCustomAgent, loadSettings, removeCustomAgent } from '../agents/settings';
import type { WorkbenchPaths } from '../paths';
import type { RequestHandlers } from './handlers';

type AgentRequests = Pick<
  RequestHandlers,
  'agents/catalog' | 'agents/add-custom' | 'agents/edit-custom' | 'agents/duplicate-custom' | 'agents/remove-custom' | 'agents/demo-workspace'
>;

const customView = (a: CustomAgentSettings): CatalogAgentView => ({
  id: a.id,
  name: a.name,
  description: a.description ?? `${a.command} ${a.args.join(' ')}`.trim(),
  source: 'custom',
  demo: false,
  custom: { command: a.command, args: a.args, env: a.env },
});

function checkInput(input: CustomAgentInputView | undefined): CustomAgentInputView {
  if (!input || typeof input.name !== 'string' || !input.name.trim()) throw new ApiError({ code: 'bad_params', message: 'A custom agent needs a name' });
  if (typeof input.command !== 'string' || !input.command.trim()) throw new ApiError({ code: 'bad_params', message: 'A custom agent needs the command that starts it' });
  return { name: input.name.trim(), command: input.command.trim(), args: Array.isArray(input.args) ? input.args.map(String) : [], env: input.env ?? {} };
}

/** Settings errors (a broken settings.json, a taken id) reach the user with the file's words. */
async function settingsCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new ApiError({ code: 'bad_params', message: err instanceof Error ? err.message : String(err) });
  }
}

export function agentHandlers(paths: WorkbenchPaths): AgentRequests {
  return {
    'agents/catalog': async () => {
      const { settings } = await loadSettings(paths.configDir);
      const custom = new Map(settings.customAgents.map((a) => [a.id, a]));
      return buildCatalog(settings)
        .filter((a) => !a.disabled)
        .map((a) => (custom.has(a.id) ? customView(custom.get(a.id)!) : { id: a.id, name: a.name, description: a.description, source: a.source, demo: a.source === 'demo' }));
    },
    'agents/add-custom': (p) => settingsCall(async () => customView(await addCustomAgent(paths.configDir, checkInput(p)))),
    'agents/edit-custom': (p) => settingsCall(async () => customView(await editCustomAgent(paths.configDir, p.id, checkInput(p)))),
    'agents/duplicate-custom': (p) => settingsCall(async () => customView(await duplicateCustomAgent(paths.configDir, p.id))),
    'agents/remove-custom': (p) =>
      settingsCall(async () => {
        if (!(await removeCustomAgent(paths.configDir, p.id))) throw new Error(`No custom agent "${p.id}"`);
      }),
    'agents/demo-workspace': async () => {
      const path = join(paths.dataDir, 'demo-workspace');
      await mkdir(path, { recursive: true });
      return { path };
    },
  };
}
