/**
 * The agent catalog's vocabulary: what the workbench knows about an agent before it starts one.
 * Built-ins, registry imports, custom agents and the demo agent all become an `AgentDefinition`,
 * so launching, detection and the UI handle one shape.
 */

export type AgentSource = 'builtin' | 'custom' | 'registry' | 'demo';

/**
 * One way to start the agent. A definition lists them in order of preference: an installed
 * binary first (the user chose to install it), then a pinned package runner, then a download.
 */
export type LaunchCandidate =
  /** A command looked up on the login-shell PATH (or an absolute path). */
  | { kind: 'path'; command: string; args: string[] }
  /** `npx -y <package@version> <args>`. */
  | { kind: 'npx'; package: string; args: string[] }
  /** `uvx <package> <args>`. */
  | { kind: 'uvx'; package: string; args: string[] }
  /** A JavaScript file run with this process's own Node (the demo agent). */
  | { kind: 'node-script'; script: string; args: string[] }
  /**
   * A registry binary the user has to download and extract first: the workbench does not
   * download binaries itself. Usable once `cmd`'s file name is on PATH.
   */
  | { kind: 'download'; platform: RegistryPlatform; archive: string; cmd: string; args: string[]; sha256?: string };

export type LaunchKind = LaunchCandidate['kind'];

export type RegistryPlatform =
  | 'darwin-aarch64'
  | 'darwin-x86_64'
  | 'linux-aarch64'
  | 'linux-x86_64'
  | 'windows-aarch64'
  | 'windows-x86_64';

export const REGISTRY_PLATFORMS: readonly RegistryPlatform[] = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
];

/** An environment variable the agent reads. Secret ones live in the secret store, never in settings. */
export interface EnvVarSpec {
  name: string;
  secret: boolean;
  /** False when the agent has another way in (a login method): the variable is one option. */
  required: boolean;
  description: string;
}

/** Something a real agent does that the workbench works around or tells the user about. */
export interface AgentQuirk {
  id: string;
  description: string;
  /** Environment set on launch when the quirk applies. */
  env?: Record<string, string>;
  /** When the env applies; absent = always. */
  when?: 'root';
}

export interface InstallInfo {
  /** What the user does, in one or two sentences. */
  text: string;
  /** The npm package (without version) when `npm install -g` installs it. */
  npmPackage?: string;
  /** Where to download a binary or read install instructions. */
  url?: string;
}

/** Where the agent process starts: the session's folder, or a fixed one. */
export type CwdRule = 'session' | { folder: string };

/** Client capabilities the workbench advertises in `initialize` (ACP ClientCapabilities, as switches). */
export interface ClientCapabilitySettings {
  fs: { readTextFile: boolean; writeTextFile: boolean };
  terminal: boolean;
  auth: { terminal: boolean };
}

export interface ClientCapabilityOverrides {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean };
  terminal?: boolean;
  auth?: { terminal?: boolean };
}

export interface AgentDefinition {
  /** Stable id (`^[a-z][a-z0-9-]*$`); registry ids where the agent is in the ACP registry. */
  id: string;
  /** Other ids `--agent` accepts (short names like `claude`). */
  aliases: string[];
  name: string;
  description: string;
  source: AgentSource;
  launch: LaunchCandidate[];
  /** Fixed, non-secret environment set on launch. */
  env: Record<string, string>;
  envVars: EnvVarSpec[];
  install: InstallInfo;
  quirks: AgentQuirk[];
  cwd: CwdRule;
  /** The pinned version (registry manifest or npx package). */
  version?: string;
  homepage?: string;
  /** The Node major version the npm package needs (engines), when above ours. */
  minNodeMajor?: number;
  /** Turned off in settings: listed, not launchable by default. */
  disabled: boolean;
  /** Per-agent capability switches (settings `agentOverrides`), over the global defaults. */
  clientCapabilities?: ClientCapabilityOverrides;
}

/** A launch ready to spawn (the shape `main/core/acp`'s `AgentCommand` takes, plus what the UI shows). */
export interface ResolvedLaunch {
  agentId: string;
  agentName: string;
  source: AgentSource;
  command: string;
  args: string[];
  /** The agent's whole environment (login-shell env + agent env + secrets). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  via: LaunchKind;
  /** The command line for people: no secret values in it. */
  display: string;
  /** Env names set from the secret store: never written anywhere, whatever they look like. */
  secretEnvNames?: string[];
}
