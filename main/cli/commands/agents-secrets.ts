/**
 * `acp-workbench agents secrets ID [set NAME | delete NAME]`: an agent's secrets (API keys) in the
 * secret store, for people without the app's Settings screen. Values go in through stdin only and
 * never come back out: listings name each secret and say whether this host can read it.
 */
import { buildCatalog, findAgent, loadSettings, SecretStore, SecretStoreError, type SecretListing } from '../../core/agents';
import { parseCommandArgs } from '../args';
import type { CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';
import { readSecretFromStdin, SecretInputError, type TerminalInput } from '../read-secret';
import { runSubcommand } from '../subcommands';

export const SECRETS_USAGE = 'agents secrets ID [set NAME | delete NAME] [--json]';

const STATE_LABEL: Record<SecretListing['state'], string> = {
  plain: 'yes (not encrypted, file mode 0600)',
  encrypted: 'yes (encrypted)',
  unreadable: 'no',
};

/** The catalog id for ID (aliases allowed); an id only the store knows (a removed agent) is kept for list/delete. */
async function resolveAgentId(id: string, configDir: string, store: SecretStore, mustExist: boolean): Promise<string> {
  const catalog = buildCatalog((await loadSettings(configDir)).settings);
  const agent = findAgent(catalog, id);
  if (agent) return agent.id;
  if (!mustExist && store.names(id).length > 0) return id;
  throw new UsageError(`unknown agent "${id}". Known agents: ${catalog.map((a) => a.id).join(', ')}`);
}

function onlyName(positionals: string[], verb: string): string {
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError(`the secret NAME is missing: ${verb} NAME (an environment variable name, e.g. ANTHROPIC_API_KEY)`);
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"${verb.endsWith('set') ? ' (the value is read from stdin, never from the command line)' : ''}`);
  return name;
}

function withStoreErrors(io: CliIo, run: () => Promise<ExitCode>): Promise<ExitCode> {
  return run().catch((err: unknown) => {
    if (err instanceof SecretStoreError || err instanceof SecretInputError) {
      io.stderr(`acp-workbench agents secrets: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  });
}

export function agentsSecrets(argv: string[], io: CliIo, stdin: TerminalInput = process.stdin): Promise<ExitCode> {
  const [id, ...rest] = argv;
  if (id === undefined || id.startsWith('-')) throw new UsageError(`the agent ID is missing: ${SECRETS_USAGE}`);
  const open = async (args: { paths: { dataDir: string; configDir: string } }, mustExist: boolean) => {
    const store = await SecretStore.open(args.paths.dataDir);
    return { store, agentId: await resolveAgentId(id, args.paths.configDir, store, mustExist) };
  };

  const list = (sub: string[]) =>
    withStoreErrors(io, async () => {
      const args = parseCommandArgs(sub, {}, io.env);
      if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}" (one of set, delete)`);
      const { store, agentId } = await open(args, false);
      const secrets = store.list(agentId);
      if (args.values.json) {
        for (const s of secrets) {
          io.stdout(`${JSON.stringify({ type: 'secret', agent: agentId, name: s.name, state: s.state, readable: s.state !== 'unreadable', note: s.note ?? null })}\n`);
        }
        return ExitCode.ok;
      }
      if (secrets.length === 0) {
        io.stdout(`No secrets stored for ${agentId}. Set one with: acp-workbench agents secrets ${agentId} set NAME (the value is read from stdin)\n`);
        return ExitCode.ok;
      }
      const width = Math.max(4, ...secrets.map((s) => s.name.length));
      const lines = [`${'NAME'.padEnd(width)}  READABLE HERE`, ...secrets.map((s) => `${s.name.padEnd(width)}  ${STATE_LABEL[s.state]}`)];
      io.stdout(`${lines.join('\n')}\nStored in ${store.file}\n`);
      for (const s of secrets.filter((x) => x.state === 'unreadable')) io.stderr(`acp-workbench agents secrets: ${s.name} is ${s.note}\n`);
      return ExitCode.ok;
    });

  const set = (sub: string[]) =>
    withStoreErrors(io, async () => {
      const args = parseCommandArgs(sub, {}, io.env);
      const name = onlyName(args.positionals, 'set');
      const { store, agentId } = await open(args, true);
      const { value } = await readSecretFromStdin(stdin, `Value of ${name} for ${agentId} (not shown): `, io.stderr);
      await store.set(agentId, name, value);
      const { encrypted, file } = store.protection();
      if (args.values.json) io.stdout(`${JSON.stringify({ type: 'secret-set', agent: agentId, name, encrypted, file })}\n`);
      else io.stdout(`Stored ${name} for ${agentId} in ${file} (${encrypted ? 'encrypted' : 'not encrypted, file mode 0600'}).\n`);
      return ExitCode.ok;
    });

  const remove = (sub: string[]) =>
    withStoreErrors(io, async () => {
      const args = parseCommandArgs(sub, {}, io.env);
      const name = onlyName(args.positionals, 'delete');
      const { store, agentId } = await open(args, false);
      // Checked first: SecretStore.delete rewrites the file even when the name is not there.
      const names = store.names(agentId);
      if (!names.includes(name) || !(await store.delete(agentId, name))) {
        io.stderr(`acp-workbench agents secrets: ${agentId} has no secret named ${name}. Stored: ${names.join(', ') || 'none'}.\n`);
        return ExitCode.usage;
      }
      if (args.values.json) io.stdout(`${JSON.stringify({ type: 'secret-deleted', agent: agentId, name })}\n`);
      else io.stdout(`Deleted ${name} of ${agentId}.\n`);
      return ExitCode.ok;
    });

  return runSubcommand(rest, io, { list, set, delete: remove }, 'list');
}
