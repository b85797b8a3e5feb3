/**
 * Test repositories for workspace tests: a real git repository in a temp folder with a commit,
 * staged, unstaged, untracked and ignored changes and a stash entry — and a fingerprint of
 * everything the user owns in it (HEAD, branch, refs, index bytes, stash, working tree files) to
 * prove a run left it alone.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FIXTURE_AGENT } from '../../acp/test-support/fixture-world';

export const TEST_GIT_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_OPTIONAL_LOCKS: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'core.hooksPath=/nonexistent', ...args], { cwd, env: TEST_GIT_ENV, encoding: 'utf8' }).trim();
}

export function tempBase(prefix: string): { base: string; cleanup: () => void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { base, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function write(root: string, rel: string, content: string | Buffer): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}

/**
 * A repository with: a commit (shared.txt, src/app.txt, .gitignore), a stash entry, a staged
 * change (staged.txt), an unstaged change (src/app.txt), an untracked file (notes.txt) and an
 * ignored file (build/out.bin).
 */
export function makeUserRepo(root: string): void {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q');
  write(root, 'shared.txt', 'line 1\nline 2\nline 3\n');
  write(root, 'src/app.txt', 'app v1\n');
  write(root, '.gitignore', 'build/\nnode_modules/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  write(root, 'src/app.txt', 'app stashed\n');
  git(root, 'stash', 'push', '-q', '-m', 'work in progress');
  write(root, 'staged.txt', 'staged\n');
  git(root, 'add', 'staged.txt');
  write(root, 'src/app.txt', 'app v2 (unstaged)\n');
  write(root, 'notes.txt', 'my untracked notes\n');
  write(root, 'build/out.bin', 'ignored build output\n');
}

/** Every file under `root` except `.git`, with its content (links as `-> target`). */
export function treeFiles(root: string, skip: readonly string[] = ['.git']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(rel ? join(root, rel) : root).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip.includes(r)) continue;
      const st = lstatSync(join(root, r));
      if (st.isSymbolicLink()) out[r] = `-> ${readlinkSync(join(root, r))}`;
      else if (st.isDirectory()) walk(r);
      else out[r] = readFileSync(join(root, r), 'utf8');
    }
  };
  walk('');
  return out;
}

/** What the user owns in the repository, to compare before and after. */
export function repoFingerprint(root: string) {
  return {
    head: git(root, 'rev-parse', 'HEAD'),
    branch: git(root, 'symbolic-ref', 'HEAD'),
    refs: git(root, 'for-each-ref', '--format=%(refname) %(objectname)'),
    stash: git(root, 'stash', 'list', '--format=%H %s'),
    indexBytes: createHash('sha256').update(readFileSync(join(root, '.git', 'index'))).digest('hex'),
    staged: git(root, 'ls-files', '-s'),
    files: treeFiles(root),
  };
}

/** A fixture-agent command line (for `--agent-cmd`) or spec playing an inline scenario. */
export function fixtureArgs(scenario: object): string[] {
  return [FIXTURE_AGENT, '--scenario-json', JSON.stringify(scenario), '--max-lifetime-ms', '120000'];
}

/** A scenario that writes files (relative to the session cwd) through fs/write_text_file, then ends the turn. */
export function writerScenario(files: Record<string, string>, text = 'done'): object {
  return {
    defaultPrompt: {
      steps: [
        { toolCall: { toolCallId: 'w1', title: 'Write files', kind: 'edit' } },
        ...Object.entries(files).map(([path, content]) => ({ writeFile: { path, content } })),
        { toolCallUpdate: { toolCallId: 'w1', status: 'completed' } },
        { text },
      ],
    },
  };
}
