/** `sessions rename`, `tag`, `delete`, `rebuild-index`. */
import { createInterface } from 'node:readline';
import { parseCommandArgs } from '../args';
import type { CliIo } from '../command';
import { ExitCode, UsageError } from '../exit-codes';
import { onlySessionId, openStore, sessionLine, withStore } from './common';
import type { SessionsSubcommand } from './subcommand';

export const renameSubcommand: SessionsSubcommand = {
  name: 'rename',
  synopsis: 'ID NAME | ID --clear',
  summary: 'give a session your own title (--clear: back to the agent’s)',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { clear: { type: 'boolean' } }, io.env);
    const [id, ...words] = args.positionals;
    if (!id) throw new UsageError('missing session ID');
    const name = words.join(' ').trim();
    if (args.values.clear ? name !== '' : name === '') throw new UsageError(args.values.clear ? 'give either NAME or --clear' : 'missing NAME');
    return withStore(args.paths.dataDir, io, 'rename', async (store) => {
      const e = await store.rename(id, args.values.clear ? null : name);
      if (args.values.json) io.stdout(sessionLine(e));
      else io.stdout(`${e.id}: ${e.title}\n`);
      return ExitCode.ok;
    });
  },
};

export const tagSubcommand: SessionsSubcommand = {
  name: 'tag',
  synopsis: 'ID TAG... [--remove]',
  summary: 'add tags to a session (--remove: take them off)',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { remove: { type: 'boolean' } }, io.env);
    const [id, ...tags] = args.positionals;
    if (!id) throw new UsageError('missing session ID');
    if (tags.length === 0) throw new UsageError('missing TAG');
    return withStore(args.paths.dataDir, io, 'tag', async (store) => {
      const e = await store.tag(id, args.values.remove ? { remove: tags } : { add: tags });
      if (args.values.json) io.stdout(sessionLine(e));
      else io.stdout(`${e.id}: ${e.tags.length ? e.tags.join(', ') : '(no tags)'}\n`);
      return ExitCode.ok;
    });
  },
};

function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  return new Promise((done) =>
    rl.question(question, (answer) => {
      rl.close();
      done(answer);
    }),
  );
}

export const deleteSubcommand: SessionsSubcommand = {
  name: 'delete',
  synopsis: 'ID [--yes] [--force]',
  summary: 'remove a session from history (asks first unless --yes; --force: even while running)',
  async run(argv, io: CliIo) {
    const args = parseCommandArgs(argv, { yes: { type: 'boolean', short: 'y' }, force: { type: 'boolean' } }, io.env);
    const id = onlySessionId(args.positionals);
    if (!args.values.yes && !io.interactive) throw new UsageError('not deleting without --yes: there is no terminal to ask on');
    return withStore(args.paths.dataDir, io, 'delete', async (store) => {
      const e = store.require(id);
      if (!args.values.yes) {
        const answer = await ask(`Delete session ${e.id} "${e.title.replace(/\s+/g, ' ').slice(0, 60)}" (${e.agent.label}, ${e.turns} turns)? [y/N] `);
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.stderr('Not deleted.\n');
          return ExitCode.ok;
        }
      }
      const r = await store.delete(e.id, { force: Boolean(args.values.force) });
      if (args.values.json) io.stdout(`${JSON.stringify({ type: 'deleted', ...r })}\n`);
      else {
        io.stdout(`Deleted ${r.id}.\n`);
        for (const t of r.trashed) io.stdout(`  trace moved to ${t}\n`);
        for (const k of r.kept) io.stdout(`  trace kept (other sessions are in it): ${k}\n`);
      }
      return ExitCode.ok;
    });
  },
};

export const rebuildSubcommand: SessionsSubcommand = {
  name: 'rebuild-index',
  synopsis: '[--json]',
  summary: 'read every trace again and rewrite the history index',
  async run(argv, io) {
    const args = parseCommandArgs(argv, {}, io.env);
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const started = Date.now();
    const store = await openStore(args.paths.dataDir, io, 'rebuild-index');
    try {
      const r = store.lastRefresh.rebuilt ? store.lastRefresh : await store.rebuild('asked for');
      const seconds = (Date.now() - started) / 1000;
      if (args.values.json) io.stdout(`${JSON.stringify({ type: 'rebuilt', sessions: store.size, traces: r.tracesRead, bytes: r.bytesRead, seconds })}\n`);
      else io.stdout(`Rebuilt the history index: ${store.size} sessions from ${r.tracesRead} traces (${(r.bytesRead / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s.\n`);
      return ExitCode.ok;
    } finally {
      await store.close();
    }
  },
};
