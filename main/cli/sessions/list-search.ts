/** `sessions list` and `sessions search`. */
import type { Snippet } from '../../core/history/history-types';
import { parseCommandArgs } from '../args';
import { ExitCode, UsageError } from '../exit-codes';
import { ENTRY_HEADER, entryRow, FILTER_OPTIONS, filterFrom, idPrefixLength, parseLimit, sessionLine, shortDate, table, withStore } from './common';
import type { SessionsSubcommand } from './subcommand';

export const listSubcommand: SessionsSubcommand = {
  name: 'list',
  synopsis: '[--agent A] [--cwd DIR] [--since DATE] [--tag T] [filters] [--json]',
  summary: 'sessions, newest first',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { ...FILTER_OPTIONS, oldest: { type: 'boolean' } }, io.env);
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const filter = filterFrom(args.values, io);
    const limit = parseLimit(args.values.limit);
    return withStore(args.paths.dataDir, io, 'list', async (store) => {
      const entries = store.list({ ...filter, ...(limit !== undefined ? { limit } : {}), order: args.values.oldest ? 'oldest' : 'newest' });
      if (args.values.json) {
        for (const e of entries) io.stdout(sessionLine(e));
        return ExitCode.ok;
      }
      if (entries.length === 0) {
        io.stderr(store.size === 0 ? `No sessions recorded yet in ${store.paths.dataDir}.\n` : 'No session matches.\n');
        return ExitCode.ok;
      }
      const idLen = idPrefixLength(store);
      io.stdout(table([ENTRY_HEADER, ...entries.map((e) => entryRow(e, idLen))]));
      return ExitCode.ok;
    });
  },
};

function highlight(s: Snippet, color: boolean): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.highlights) {
    out += s.text.slice(at, a) + (color ? `\u001b[1;33m${s.text.slice(a, b)}\u001b[0m` : `[${s.text.slice(a, b)}]`);
    at = b;
  }
  return out + s.text.slice(at);
}

export const searchSubcommand: SessionsSubcommand = {
  name: 'search',
  synopsis: 'QUERY [filters] [--json]',
  summary: 'full-text search: prompts, answers, thoughts, tool calls and output, file paths',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { ...FILTER_OPTIONS, snippets: { type: 'string' } }, io.env);
    const query = args.positionals.join(' ').trim();
    if (!query) throw new UsageError('missing QUERY');
    const filter = filterFrom(args.values, io);
    const limit = parseLimit(args.values.limit) ?? 20;
    const snippets = args.values.snippets === undefined ? 2 : Number(args.values.snippets);
    if (!Number.isInteger(snippets) || snippets < 0) throw new UsageError(`--snippets must be a whole number ≥ 0, got "${args.values.snippets}"`);
    return withStore(args.paths.dataDir, io, 'search', async (store) => {
      // The store caught up while opening.
      const result = await store.search(query, { ...filter, limit, snippets, refresh: false });
      if (result.terms.length === 0) throw new UsageError(`"${query}" has no word to search for (words have 2 characters or more)`);
      if (args.values.json) {
        io.stdout(`${JSON.stringify({ type: 'search', query: result.query, terms: result.terms, total: result.total })}\n`);
        result.hits.forEach((h, i) => io.stdout(`${JSON.stringify({ type: 'hit', rank: i + 1, score: h.score, fields: h.fields, snippets: h.snippets, session: h.entry })}\n`));
        return ExitCode.ok;
      }
      if (result.total === 0) {
        io.stderr(`No session matches "${query}".\n`);
        return ExitCode.ok;
      }
      const color = Boolean(process.stdout.isTTY) && !io.env.NO_COLOR;
      const idLen = idPrefixLength(store);
      for (const h of result.hits) {
        const e = h.entry;
        io.stdout(`${e.id.slice(0, idLen)}  ${shortDate(e.updatedMs)}  ${e.agent.label}  ${e.title.replace(/\s+/g, ' ').slice(0, 80)}\n`);
        for (const s of h.snippets) io.stdout(`    ${s.field.padEnd(7)} ${highlight(s, color)}\n`);
      }
      const more = result.total - result.hits.length;
      io.stderr(`${result.total} session${result.total === 1 ? '' : 's'} match${result.total === 1 ? 'es' : ''}${more > 0 ? ` (${more} more: --limit)` : ''}.\n`);
      return ExitCode.ok;
    });
  },
};
