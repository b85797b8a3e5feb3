export interface AppInfo {
  name: string;
  version: string;
  /** Which host the core runs in: the Electron main process, the web host or the CLI. */
  host: 'electron' | 'web' | 'cli' | 'test';
  /** Runtime versions, e.g. `{ node: "20.20.2", electron: "45.5.0" }`. */
  runtime: Record<string, string>;
  platform: string;
  dataDir: string;
  configDir: string;
  /** The host can show a native folder picker (`app/pick-folder`): the Electron shell, not the web host. */
  canPickFolder: boolean;
}

export interface PingParams {
  nonce: string;
}
export interface PingResult {
  nonce: string;
  /** Core clock (ms since epoch) when the ping was handled. */
  receivedAt: number;
}
