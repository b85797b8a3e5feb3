/**
 * Running git for workspaces: always with an explicit repository (`-C`, or `--git-dir` plus
 * `--work-tree`), an environment without the caller's `GIT_*` variables, no hooks, no prompts, no
 * pager, no automatic gc and no user configuration that changes the output we parse or the patches
 * we apply (prefixes, renames, external diff drivers, quoting).
 */
import { execFile } from 'node:child_process';

/** Where git runs: `-C DIR`, or a private git dir over a work tree (copy workspaces). */
export interface GitPlace {
  /** Arguments that select the repository, e.g. `['-C', dir]` or `['--git-dir', g, '--work-tree', w]`. */
  args: string[];
  /** Extra environment (e.g. `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** Configuration that makes every command safe and its output predictable. */
const SAFE_CONFIG = [
  'core.hooksPath=/nonexistent/acp-workbench-no-hooks',
  'core.fsmonitor=false',
  'core.quotePath=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.renames=false',
  'color.ui=false',
  'advice.detachedHead=false',
  'commit.gpgSign=false',
];

/** The caller's environment without git's own variables, plus ours. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('GIT_') && v !== undefined) env[k] = v;
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    // Snapshot and result commits need an identity; they never land on a branch.
    GIT_AUTHOR_NAME: 'ACP Workbench',
    GIT_AUTHOR_EMAIL: 'acp-workbench@localhost',
    GIT_COMMITTER_NAME: 'ACP Workbench',
    GIT_COMMITTER_EMAIL: 'acp-workbench@localhost',
    ...extra,
  };
}

export interface RunGitOptions {
  input?: string | Buffer;
  /** Accept these exit codes besides 0 (e.g. `git apply --check` reports a refusal with 1). */
  allowCodes?: number[];
  baseEnv?: NodeJS.ProcessEnv;
}

const MAX_BUFFER = 1024 * 1024 * 1024;

export function runGit(place: GitPlace, args: string[], options: RunGitOptions = {}): Promise<GitResult> {
  const config = SAFE_CONFIG.flatMap((c) => ['-c', c]);
  const argv = [...config, ...place.args, ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argv,
      { env: gitEnv(options.baseEnv, place.env), encoding: 'buffer', maxBuffer: MAX_BUFFER, windowsHide: true },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null) : 0;
        const errText = stderr.toString('utf8');
        if (code === 0 || (code !== null && options.allowCodes?.includes(code))) {
          resolve({ stdout, stderr: errText, code });
          return;
        }
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(new GitError('git was not found on PATH: install git to isolate agents in workspaces', null, ''));
          return;
        }
        const what = `git ${args.slice(0, 2).join(' ')}`;
        reject(new GitError(`${what} failed${code !== null ? ` (exit ${code})` : ''}: ${errText.trim() || (err?.message ?? '')}`, code, errText));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** stdout as trimmed text. */
export async function gitText(place: GitPlace, args: string[], options?: RunGitOptions): Promise<string> {
  return (await runGit(place, args, options)).stdout.toString('utf8').trim();
}

export const atDir = (dir: string, env?: Record<string, string>): GitPlace => ({ args: ['-C', dir], ...(env ? { env } : {}) });
