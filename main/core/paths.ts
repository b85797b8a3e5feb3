import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the workbench keeps its data (traces, index, process registry) and its settings.
 * One default is shared by the Electron app, the web host and the CLI; see docs/data.md.
 */
export interface PathInputs {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  /** `--data-dir` from the command line, when given. */
  dataDirFlag?: string | undefined;
  /** `--config-dir` from the command line, when given. */
  configDirFlag?: string | undefined;
}

export interface WorkbenchPaths {
  dataDir: string;
  configDir: string;
}

export const APP_DIR_NAME = 'acp-workbench';

export function resolvePaths(input: PathInputs): WorkbenchPaths {
  return {
    dataDir: input.dataDirFlag || input.env.ACP_WORKBENCH_DATA_DIR || defaultDataDir(input),
    configDir: input.configDirFlag || input.env.ACP_WORKBENCH_CONFIG_DIR || defaultConfigDir(input),
  };
}

function defaultDataDir({ env, platform, home }: PathInputs): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), APP_DIR_NAME);
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), APP_DIR_NAME);
}

function defaultConfigDir({ env, platform, home }: PathInputs): string {
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_DIR_NAME);
}

/** The paths of this process, from its environment and command-line flags. */
export function processPaths(
  flags: { dataDir?: string | undefined; configDir?: string | undefined } = {},
  env: NodeJS.ProcessEnv = process.env,
): WorkbenchPaths {
  return resolvePaths({
    env,
    platform: process.platform,
    home: homedir(),
    dataDirFlag: flags.dataDir,
    configDirFlag: flags.configDir,
  });
}
