import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../test-support/run-cli';

const ROOT = resolve(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'e2e', 'fixtures', 'traces');
const AGENT = join(ROOT, 'dist', 'fixtures', 'fixture-agent.cjs');

function dataDirWithFixtures(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-sessions-cli-'));
  mkdirSync(join(dataDir, 'traces'));
  cpSync(FIXTURES, join(dataDir, 'traces'), { recursive: true });
  return dataDir;
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { type: string });

describe('acp-workbench sessions', () => {
  it('lists a session run by the CLI at once, and finds it by its words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-sessions-run-'));
    const cwd = join(dataDir, 'project');
    mkdirSync(cwd);
    const run = await runBuiltCli(['run', '--data-dir', dataDir, '--cwd', cwd, '--agent-cmd', `node ${AGENT} --scenario basic-text`, '--prompt', 'count the marmosets', '--approve', 'none', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const session = jsonLines(run.stdout).find((e) => e.type === 'session') as unknown as { id: string; trace: string };

    const list = await runBuiltCli(['sessions', 'list', '--data-dir', dataDir, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = jsonLines(list.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'session',
      id: session.id,
      title: 'count the marmosets',
      agent: { label: 'Fixture: basic text', name: 'fixture-basic', version: '1.0.0' },
      cwd,
      turns: 1,
      lastStopReason: 'end_turn',
      status: 'ended',
      trace: { path: session.trace },
    });

    const search = await runBuiltCli(['sessions', 'search', 'marmosets', '--data-dir', dataDir, '--json']);
    const [head, hit] = jsonLines(search.stdout);
    expect(head).toMatchObject({ type: 'search', terms: ['marmosets'], total: 1 });
    expect(hit).toMatchObject({ type: 'hit', rank: 1, fields: ['prompt', 'agent'], session: { id: session.id } });
  });

  it('lists as a table, with filters, and searches with highlighted snippets', async () => {
    const dataDir = dataDirWithFixtures();
    const table = await runBuiltCli(['sessions', '--data-dir', dataDir]);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+UPDATED\s+AGENT\s+TURNS\s+STATUS\s+FILES\s+TITLE$/);
    expect(lines).toHaveLength(14);
    expect(table.stdout).toMatch(/01JDQ9000000000000000SESS1\s.*Claude Code\s+1\s+end_turn\s+1\s+Fix the typo in README\.md/);

    const codex = await runBuiltCli(['sessions', 'list', '--agent', 'codex', '--json', '--data-dir', dataDir]);
    expect(jsonLines(codex.stdout).map((r) => r.id).sort()).toEqual(['01JDQ9000000000000000SESS3', '01JDQ9000000000000000SESS4']);
    const since = await runBuiltCli(['sessions', 'list', '--since', '2026-11-29T11:30:00Z', '--json', '--data-dir', dataDir]);
    expect(jsonLines(since.stdout).map((r) => r.id).sort()).toEqual(['01JDQ9000000000000000SESSA', '01JDQ9000000000000000SESSB', '01JDQ9000000000000000SESSC', '01JDQ9000000000000000SESSD']);
    const tagged = await runBuiltCli(['sessions', 'list', '--tag', 'python', '--json', '--data-dir', dataDir]);
    expect(jsonLines(tagged.stdout).map((r) => r.id)).toEqual(['01JDQ9000000000000000SESS8']);

    const search = await runBuiltCli(['sessions', 'search', 'typo', '--data-dir', dataDir], { env: { NO_COLOR: '1' } });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/^01JDQ9000000000000000SESS1 .*Claude Code {2}Fix the typo in README\.md\n {4}prompt {2}Fix the \[typo\] in README\.md\n/);
    expect(search.stderr).toBe('1 session matches.\n');
    const none = await runBuiltCli(['sessions', 'search', 'nothinglikethis', '--data-dir', dataDir]);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('No session matches "nothinglikethis"');
  });

  it('shows a session, and exports it to stdout or a file in each format', async () => {
    const dataDir = dataDirWithFixtures();
    const show = await runBuiltCli(['sessions', 'show', '01JDQ9000000000000000SESS1', '--data-dir', dataDir]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('title    Fix the typo in README.md');
    expect(show.stdout).toContain('user      │ Fix the typo in README.md');
    expect(show.stdout).toContain('turn end  │ end_turn, 2.5 s');

    const md = await runBuiltCli(['sessions', 'export', '01JDQ9000000000000000SESS1', '--format', 'md', '--data-dir', dataDir]);
    expect(md.stdout).toMatch(/^# Fix the typo in README\.md\n/);
    const out = join(dataDir, 'out.jsonl');
    const jsonl = await runBuiltCli(['sessions', 'export', '01JDQ9000000000000000SESSB', '--format', 'jsonl', '--out', out, '--data-dir', dataDir]);
    expect(jsonl).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(out, 'utf8').split('\n')[0]).toContain('"kind":"header"');
    const json = await runBuiltCli(['sessions', 'export', '01JDQ9000000000000000SESSB', '--format', 'json', '--data-dir', dataDir]);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'acp-workbench-session', session: { id: '01JDQ9000000000000000SESSB', turns: 2 } });

    const bad = await runBuiltCli(['sessions', 'export', '01JDQ9000000000000000SESSB', '--format', 'pdf', '--data-dir', dataDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of jsonl, md, json');
  });

  it('imports a trace once, renames, tags and deletes (asking first)', async () => {
    const from = dataDirWithFixtures();
    const exported = join(from, 'gemini.jsonl');
    await runBuiltCli(['sessions', 'export', '01JDQ9000000000000000SESS5', '--format', 'jsonl', '--out', exported, '--data-dir', from]);
    const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-sessions-import-'));
    const first = await runBuiltCli(['sessions', 'import', exported, '--data-dir', dataDir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('added: 01JDQ9000000000000000SESS5  Create notes.md with a todo list\n');
    const second = await runBuiltCli(['sessions', 'import', exported, '--data-dir', dataDir, '--json']);
    expect(jsonLines(second.stdout)).toMatchObject([{ type: 'imported', id: '01JDQ9000000000000000SESS5', status: 'present' }]);

    const renamed = await runBuiltCli(['sessions', 'rename', '01JDQ9000000000000000SESS5', 'Notes', 'for', 'Ada', '--data-dir', dataDir]);
    expect(renamed.stdout).toBe('01JDQ9000000000000000SESS5: Notes for Ada\n');
    const tagged = await runBuiltCli(['sessions', 'tag', '01JDQ9000000000000000SESS5', 'todo', 'gemini', '--data-dir', dataDir]);
    expect(tagged.stdout).toBe('01JDQ9000000000000000SESS5: todo, gemini\n');
    const list = jsonLines((await runBuiltCli(['sessions', 'list', '--json', '--data-dir', dataDir])).stdout);
    expect(list).toMatchObject([{ title: 'Notes for Ada', userTitle: 'Notes for Ada', tags: ['todo', 'gemini'], imported: true }]);

    const refused = await runBuiltCli(['sessions', 'delete', '01JDQ9000000000000000SESS5', '--data-dir', dataDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not deleting without --yes');
    const deleted = await runBuiltCli(['sessions', 'delete', '01JDQ9000000000000000SESS5', '--yes', '--data-dir', dataDir]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/^Deleted 01JDQ9000000000000000SESS5\.\n {2}trace moved to .*trash/);
    expect((await runBuiltCli(['sessions', 'list', '--json', '--data-dir', dataDir])).stdout).toBe('');
    expect(existsSync(join(dataDir, 'trash'))).toBe(true);
  });

  it('rebuilds the index, and answers bad ids and arguments with exit code 2', async () => {
    const dataDir = dataDirWithFixtures();
    const rebuilt = await runBuiltCli(['sessions', 'rebuild-index', '--json', '--data-dir', dataDir]);
    expect(jsonLines(rebuilt.stdout)).toMatchObject([{ type: 'rebuilt', sessions: 13, traces: 12 }]);
    writeFileSync(join(dataDir, 'history', 'index.json'), 'garbage');
    const after = await runBuiltCli(['sessions', 'list', '--json', '--data-dir', dataDir]);
    expect(after.code).toBe(0);
    expect(jsonLines(after.stdout)).toHaveLength(13);
    expect(after.stderr).toMatch(/rebuilt the history index \(the index could not be read/);

    const ambiguous = await runBuiltCli(['sessions', 'show', '01JDQ9', '--data-dir', dataDir]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/"01JDQ9" matches 13 sessions: .*; give more of the id/);
    const missing = await runBuiltCli(['sessions', 'show', 'NOPE', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no session "NOPE" in history');
    for (const args of [['sessions', 'frobnicate'], ['sessions', 'search'], ['sessions', 'list', '--since', 'someday'], ['sessions', 'list', '--status', 'happy'], ['sessions', 'export', 'x'], ['sessions', 'rename', 'x'], ['sessions', 'tag', 'x'], ['sessions', 'list', '--bogus']]) {
      const r = await runBuiltCli([...args, '--data-dir', dataDir]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    const help = await runBuiltCli(['sessions', '--help']);
    expect(help.stdout).toContain('acp-workbench sessions search QUERY');
  });

  it('diffs what a session changed: a patch git apply takes in a copy of its folder, a stat, its texts as JSON', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acpwb-sessions-diff-'));
    const cwd = join(dataDir, 'project');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'hello.txt'), 'Hello\n');
    const runOf = async (scenario: string, prompt: string) => {
      const run = await runBuiltCli(['run', '--data-dir', dataDir, '--cwd', cwd, '--agent-cmd', `node ${AGENT} --scenario ${scenario}`, '--prompt', prompt, '--approve', 'all', '--json']);
      expect(run.code, run.stderr).toBe(0);
      return (jsonLines(run.stdout).find((e) => e.type === 'session') as unknown as { id: string }).id;
    };
    const edited = await runOf('full-turn', 'change the greeting');
    const created = await runOf('new-file', 'make a to-do list');
    const talked = await runOf('basic-text', 'just talk');
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');

    const patch = await runBuiltCli(['sessions', 'diff', edited, '--data-dir', dataDir]);
    expect(patch.code, patch.stderr).toBe(0);
    expect(patch.stdout).toBe('--- a/hello.txt\n+++ b/hello.txt\n@@ -1,1 +1,1 @@\n-Hello\n+Hello, world!\n');
    // Applied where the file is as it was before the session: the session's result.
    const copy = mkdtempSync(join(tmpdir(), 'acpwb-sessions-diff-copy-'));
    writeFileSync(join(copy, 'hello.txt'), 'Hello\n');
    writeFileSync(join(copy, 'session.patch'), patch.stdout + (await runBuiltCli(['sessions', 'diff', created.slice(0, 16), '--data-dir', dataDir])).stdout);
    execFileSync('git', ['apply', 'session.patch'], { cwd: copy, stdio: 'pipe' });
    expect(readFileSync(join(copy, 'hello.txt'), 'utf8')).toBe('Hello, world!\n');
    expect(readFileSync(join(copy, 'todo.md'), 'utf8')).toBe('# To do\n- write the tests\n- ship it\n');

    const stat = await runBuiltCli(['sessions', 'diff', created, '--stat', '--data-dir', dataDir]);
    expect(stat.stdout).toBe('+3 -0  todo.md  (new)\n1 file changed, +3 -0\n');
    const json = jsonLines((await runBuiltCli(['sessions', 'diff', edited, '--json', '--data-dir', dataDir])).stdout);
    expect(json).toEqual([{ type: 'file', path: join(cwd, 'hello.txt'), relativePath: 'hello.txt', oldText: 'Hello\n', newText: 'Hello, world!\n', exact: true, writes: 1, failed: 0, added: 1, removed: 1 }]);

    const none = await runBuiltCli(['sessions', 'diff', talked, '--data-dir', dataDir]);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain(`session ${talked} changed no files`);
    const missing = await runBuiltCli(['sessions', 'diff', 'NOPE', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('NOPE');
  });
});
