/** `sessions show`, `sessions export`, `sessions import`. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { entryList } from '../../../common/transcript/model';
import { renderTranscriptText } from '../../../common/transcript/render-text';
import { EXPORT_FORMATS, type ExportFormat } from '../../core/history/export-import';
import { HistoryError } from '../../core/history/history-store';
import type { HistoryEntry } from '../../core/history/history-types';
import { parseCommandArgs } from '../args';
import { ExitCode, UsageError } from '../exit-codes';
import { onlySessionId, shortDate, withStore } from './common';
import type { SessionsSubcommand } from './subcommand';

function describe(e: HistoryEntry): string {
  const lines = [
    `session  ${e.id}${e.agentSessionId ? ` (agent session ${e.agentSessionId})` : ''}`,
    `title    ${e.title}`,
    `agent    ${e.agent.label}${e.agent.version ? ` ${e.agent.version}` : ''}`,
    `folder   ${e.cwd ?? '-'}`,
    `created  ${shortDate(e.createdMs)}   updated ${shortDate(e.updatedMs)}`,
    `status   ${e.status}, ${e.turns} turn${e.turns === 1 ? '' : 's'}${Object.keys(e.stopReasons).length ? ` (${Object.entries(e.stopReasons).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}${e.turnErrors ? `, ${e.turnErrors} failed` : ''}`,
  ];
  const tokens = Object.entries(e.usage.tokens).map(([k, v]) => `${k} ${v}`);
  if (tokens.length || e.usage.cost) lines.push(`usage    ${[...tokens, e.usage.cost ? `${e.usage.cost.amount} ${e.usage.cost.currency}` : ''].filter(Boolean).join(', ')}`);
  if (e.tags.length) lines.push(`tags     ${e.tags.join(', ')}`);
  if (e.lineage?.parentSessionId) lines.push(`fork of  ${e.lineage.parentSessionId}${e.lineage.forkPoint?.entryId ? ` at ${e.lineage.forkPoint.entryId}` : ''}`);
  if (e.lineage?.runId) lines.push(`run      ${e.lineage.runId}`);
  if (e.filesChanged.length) lines.push(`changed  ${e.filesChanged.join('\n         ')}`);
  lines.push(`trace    ${e.traces.map((t) => t.path).join('\n         ')}`);
  if (e.corruptLines || e.torn) lines.push(`warning  ${e.corruptLines ? `${e.corruptLines} corrupt line(s)` : ''}${e.corruptLines && e.torn ? ', ' : ''}${e.torn ? 'torn last line' : ''} in its trace`);
  return `${lines.join('\n')}\n`;
}

export const showSubcommand: SessionsSubcommand = {
  name: 'show',
  synopsis: 'ID [--json]',
  summary: 'a session as a readable transcript (--json: its entry and transcript entries)',
  async run(argv, io) {
    const args = parseCommandArgs(argv, {}, io.env);
    const id = onlySessionId(args.positionals);
    return withStore(args.paths.dataDir, io, 'show', async (store) => {
      const entry = store.require(id);
      const transcripts = await store.transcripts(entry.id);
      if (args.values.json) {
        io.stdout(`${JSON.stringify({ type: 'session', ...entry })}\n`);
        transcripts.forEach((t, i) => {
          for (const e of entryList(t)) io.stdout(`${JSON.stringify({ type: 'entry', connectionId: entry.traces[i]?.connectionId, entry: e })}\n`);
        });
        return ExitCode.ok;
      }
      io.stdout(describe(entry));
      transcripts.forEach((t, i) => {
        if (transcripts.length > 1) io.stdout(`\n── connection ${entry.traces[i]?.connectionId} ──\n`);
        io.stdout(`\n${renderTranscriptText(t) || '(no entries)\n'}`);
      });
      return ExitCode.ok;
    });
  },
};

export const exportSubcommand: SessionsSubcommand = {
  name: 'export',
  synopsis: 'ID --format jsonl|md|json [--out FILE]',
  summary: 'the session as its trace, as Markdown or as JSON (stdout unless --out)',
  async run(argv, io) {
    const args = parseCommandArgs(argv, { format: { type: 'string' }, out: { type: 'string' } }, io.env);
    const id = onlySessionId(args.positionals);
    const format = args.values.format;
    if (format === undefined) throw new UsageError(`--format is required: ${EXPORT_FORMATS.join(', ')}`);
    if (!EXPORT_FORMATS.includes(format as ExportFormat)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${format}"`);
    return withStore(args.paths.dataDir, io, 'export', async (store) => {
      const result = await store.export(id, format as ExportFormat);
      for (const w of result.warnings) io.stderr(`acp-workbench sessions export: ${w}\n`);
      if (args.values.out === undefined) {
        io.stdout(result.text);
        return ExitCode.ok;
      }
      const out = resolve(io.cwd, args.values.out);
      try {
        await writeFile(out, result.text);
      } catch (err) {
        throw new HistoryError('invalid', `cannot write ${out}: ${(err as Error).message}`);
      }
      if (args.values.json) io.stdout(`${JSON.stringify({ type: 'exported', id: store.require(id).id, format, file: out, bytes: Buffer.byteLength(result.text) })}\n`);
      else io.stderr(`Wrote ${out}\n`);
      return ExitCode.ok;
    });
  },
};

export const importSubcommand: SessionsSubcommand = {
  name: 'import',
  synopsis: 'FILE... [--json]',
  summary: 'add the sessions of trace files (or exported traces) to history; duplicates are recognised',
  async run(argv, io) {
    const args = parseCommandArgs(argv, {}, io.env);
    if (args.positionals.length === 0) throw new UsageError('missing trace FILE');
    return withStore(args.paths.dataDir, io, 'import', async (store) => {
      for (const file of args.positionals) {
        const result = await store.importTrace(resolve(io.cwd, file));
        for (const t of result.traces) {
          for (const s of t.sessions) {
            const title = store.get(s.id)?.title;
            if (args.values.json) io.stdout(`${JSON.stringify({ type: 'imported', id: s.id, status: s.status, connectionId: t.connectionId, source: result.source, file: t.file ?? null, ...(title ? { title } : {}) })}\n`);
            else {
              const what = s.status === 'present' ? 'already in history' : s.status === 'restored' ? 'restored' : 'added';
              io.stdout(`${what}: ${s.id}${title ? `  ${title.replace(/\s+/g, ' ').slice(0, 70)}` : ''}\n`);
            }
          }
          if (t.corruptLines) io.stderr(`acp-workbench sessions import: ${file}: ${t.corruptLines} corrupt line(s) in connection ${t.connectionId} (kept as they are; readers skip them)\n`);
        }
      }
      return ExitCode.ok;
    });
  },
};
