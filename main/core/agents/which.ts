/**
 * `which` against a given environment (the login shell's, not necessarily ours), so detection and
 * launch agree on what "installed" means.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter as hostDelimiter, isAbsolute, join, resolve } from 'node:path';

/** PATH's value; Windows spells the key in any case. */
export function pathValue(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return env.PATH ?? '';
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key ? (env[key] ?? '') : '';
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path `command` would run as, or undefined. A command with a slash is a path
 * (relative ones against `cwd`); a bare name is looked up on the env's PATH (+ PATHEXT on Windows).
 */
export function findExecutable(
  command: string,
  env: NodeJS.ProcessEnv,
  options: { platform?: NodeJS.Platform; cwd?: string } = {},
): string | undefined {
  const platform = options.platform ?? process.platform;
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const base = isAbsolute(command) ? command : resolve(options.cwd ?? process.cwd(), command);
    return exts.map((e) => base + e).find((f) => isExecutableFile(f, platform));
  }
  const delimiter = platform === 'win32' ? ';' : platform === process.platform ? hostDelimiter : ':';
  for (const dir of pathValue(env, platform).split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = join(dir, command + ext);
      if (isExecutableFile(file, platform)) return file;
    }
  }
  return undefined;
}
