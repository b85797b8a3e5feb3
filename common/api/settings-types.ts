/**
 * The settings screen's API: `settings.json` as the screen edits it, the problems found in the
 * file, and the secret store by names only (values go in, never come back out).
 */

export type PermissionPolicyView = 'ask' | 'all' | 'reads' | 'none';
export type ThemeView = 'system' | 'light' | 'dark';

export interface ClientCapabilitiesView {
  fs: { readTextFile: boolean; writeTextFile: boolean };
  terminal: boolean;
  auth: { terminal: boolean };
}

export interface NameValueView {
  name: string;
  value: string;
}

/** An MCP server entry in ACP's shapes (docs/settings.md `mcpServers[]`). */
export type McpServerView =
  | { type?: 'stdio'; name: string; command: string; args: string[]; env: NameValueView[]; enabled: boolean }
  | { type: 'http' | 'sse'; name: string; url: string; headers: NameValueView[]; enabled: boolean };

/** What the screen edits: the effective values (the file's valid values over the defaults). */
export interface SettingsValuesView {
  defaultAgent: string | null;
  /** As written (may start with `~/`). */
  defaultFolder: string | null;
  permissionPolicy: PermissionPolicyView;
  theme: ThemeView;
  clientCapabilities: ClientCapabilitiesView;
  mcpServers: McpServerView[];
}

export interface SettingsProblemView {
  /** JSON path inside settings.json (`mcpServers[1].url`); empty for the whole file. */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface SettingsView {
  /** Absolute path of settings.json. */
  file: string;
  exists: boolean;
  values: SettingsValuesView;
  /** `defaultFolder` with `~` expanded, ready for a new session. */
  defaultFolderResolved: string | null;
  /** Problems found in the file; while any is an error, the workbench does not change the file. */
  problems: SettingsProblemView[];
}

/**
 * A partial change: only the keys given are changed; `null` removes the key from the file (back
 * to the default). `clientCapabilities` may name only the switches that change.
 */
export interface SettingsUpdateParams {
  defaultAgent?: string | null;
  defaultFolder?: string | null;
  permissionPolicy?: PermissionPolicyView | null;
  theme?: ThemeView | null;
  clientCapabilities?: { fs?: { readTextFile?: boolean; writeTextFile?: boolean }; terminal?: boolean; auth?: { terminal?: boolean } } | null;
  mcpServers?: McpServerView[] | null;
}

/** One reason a change was refused, next to the field it is about. */
export interface SettingsFieldError {
  /** The field as the update named it (`defaultFolder`, `mcpServers[0].url`); empty for the whole file. */
  field: string;
  message: string;
}

export type SettingsUpdateResult = { saved: true; view: SettingsView } | { saved: false; errors: SettingsFieldError[]; view: SettingsView };

/** Pushed after settings.json was changed through the API (every window updates; the theme applies). */
export interface SettingsChangedEvent {
  view: SettingsView;
}

export type SecretStateView = 'encrypted' | 'plain' | 'unreadable';

export interface SecretNameView {
  name: string;
  state: SecretStateView;
  /** For `unreadable`: why this host cannot use it and what to do. */
  note?: string;
}

export interface SecretsListParams {
  /** One agent; omitted = every agent that has secrets. */
  agentId?: string;
}

export interface SecretsListResult {
  /** agent id → its secret names (never values). */
  agents: Record<string, SecretNameView[]>;
  /** How values set now are stored here. */
  protection: { encrypted: boolean; method: string; summary: string };
}

export interface SecretSetParams {
  agentId: string;
  name: string;
  value: string;
}

export interface SecretDeleteParams {
  agentId: string;
  name: string;
}
