/**
 * Launchers for the pinned third-party ACP agents in `agents/` (installed with `npm ci` there).
 * Each creates a throw-away home (HOME, XDG dirs, TMPDIR, the agent's config dir) whose config
 * points the agent at the scripted model server, and returns how to spawn it over stdio. Nothing
 * from the user's environment leaks in except PATH and the locale.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export type AgentId = 'claude-0.23' | 'claude-0.49' | 'opencode' | 'codex' | 'gemini';

export interface AgentLaunch {
  agent: AgentId;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where to spawn the agent (the project dir; sessions still name their own cwd). */
  cwd: string;
  /** The throw-away root holding HOME, config and TMPDIR. */
  sandboxDir: string;
  /** Removes the sandbox (call after the agent exited). */
  dispose(): void;
}

export interface LaunchOptions {
  /** Model server base URL without `/v1`, e.g. `http://127.0.0.1:43121`. */
  modelUrl: string;
  /** Directory the agent is started in. */
  projectDir: string;
  /** The `agents/` package folder; defaults to `$REAL_AGENTS_DIR` or `e2e/real-agents/agents` under the cwd. */
  agentsDir?: string;
  /** Applied last, over the launcher's own variables (an empty string removes a variable). */
  extraEnv?: Record<string, string>;
}

export interface AgentSpec {
  id: AgentId;
  label: string;
  /** npm package and pinned version, as in agents/package.json. */
  pkg: string;
  version: string;
  /** The entry point that must exist for the agent to be runnable, relative to agents/node_modules. */
  entry: string;
  launch(options: LaunchOptions): AgentLaunch;
  /** Client capabilities to withhold from this agent to work around its bugs, and why. */
  withhold?: { capabilities: ('readTextFile' | 'writeTextFile' | 'terminal')[]; reason: string };
}

export function agentsDir(options?: { agentsDir?: string }): string {
  return options?.agentsDir ?? process.env['REAL_AGENTS_DIR'] ?? resolve(process.cwd(), 'e2e/real-agents/agents');
}

/** Claude adapters need a syntactically plausible model id; the server answers any name. */
export const MODELS = {
  claude: 'claude-sonnet-4-5',
  claudeSmall: 'claude-haiku-4-5',
  opencode: 'scripted-model',
  codex: 'gpt-5.4',
  gemini: 'gemini-2.5-flash',
} as const;

interface Sandbox {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

function makeSandbox(agent: AgentId): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `acp-real-${agent}-`));
  const home = join(root, 'home');
  const dirs = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    // A TMPDIR of its own: codex refuses a CODEX_HOME inside TMPDIR, and agents' scratch files go away with the sandbox.
    TMPDIR: join(root, 'tmp'),
  };
  for (const dir of [home, ...Object.values(dirs)]) mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    SHELL: '/bin/bash',
    USER: process.env['USER'] ?? 'root',
    HOME: home,
    ...dirs,
  };
  return { root, home, env };
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function finish(agent: AgentId, sandbox: Sandbox, command: string, args: string[], env: NodeJS.ProcessEnv, options: LaunchOptions): AgentLaunch {
  const merged: NodeJS.ProcessEnv = { ...sandbox.env, ...env, ...options.extraEnv };
  for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key];
  return {
    agent,
    command,
    args,
    env: merged,
    cwd: options.projectDir,
    sandboxDir: sandbox.root,
    dispose: () => rmSync(sandbox.root, { recursive: true, force: true }),
  };
}

function claudeLaunch(id: AgentId, entry: string) {
  return (options: LaunchOptions): AgentLaunch => {
    const sandbox = makeSandbox(id);
    const configDir = join(sandbox.home, '.claude');
    mkdirSync(configDir, { recursive: true });
    const env = {
      ANTHROPIC_BASE_URL: options.modelUrl,
      ANTHROPIC_API_KEY: 'sk-ant-scripted-model',
      ANTHROPIC_MODEL: MODELS.claude,
      ANTHROPIC_SMALL_FAST_MODEL: MODELS.claudeSmall,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: MODELS.claudeSmall,
      CLAUDE_CONFIG_DIR: configDir,
      // Without it the adapters fail session/new with an opaque -32603 when run as root (CI).
      IS_SANDBOX: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      // Non-essential traffic stays on: its title request (a JSON side request) makes 0.49 send session_info_update.
    };
    return finish(id, sandbox, process.execPath, [join(agentsDir(options), 'node_modules', entry)], env, options);
  };
}

function opencodeLaunch(options: LaunchOptions): AgentLaunch {
  const sandbox = makeSandbox('opencode');
  writeJson(join(sandbox.env['XDG_CONFIG_HOME']!, 'opencode', 'opencode.json'), {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted model server',
        options: { baseURL: `${options.modelUrl}/v1`, apiKey: 'scripted' },
        models: { [MODELS.opencode]: { name: 'Scripted model', tool_call: true } },
      },
    },
    model: `scripted/${MODELS.opencode}`,
    small_model: `scripted/${MODELS.opencode}`,
    // "ask" makes opencode send session/request_permission for edits and shell commands.
    permission: { edit: 'ask', bash: 'ask' },
    autoupdate: false,
    share: 'disabled',
  });
  const env = {
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
  return finish('opencode', sandbox, opencodeBinary(options), ['acp'], env, options);
}

function opencodeBinary(options: LaunchOptions): string {
  const modules = join(agentsDir(options), 'node_modules');
  for (const pkg of ['opencode-linux-x64', 'opencode-linux-x64-baseline']) {
    const bin = join(modules, pkg, 'bin', 'opencode');
    if (existsSync(bin)) return bin;
  }
  return join(modules, 'opencode-linux-x64', 'bin', 'opencode');
}

function codexLaunch(options: LaunchOptions): AgentLaunch {
  const sandbox = makeSandbox('codex');
  const codexHome = join(sandbox.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const toml = [
    `model = "${MODELS.codex}"`,
    'model_provider = "scripted"',
    // read-only + on-request: codex asks permission for every edit and for commands outside the sandbox.
    'approval_policy = "on-request"',
    'sandbox_mode = "read-only"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.scripted]',
    'name = "Scripted model server"',
    `base_url = "${options.modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 120000',
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), toml);
  const env = { CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'scripted', OPENAI_API_KEY: 'scripted', RUST_LOG: 'warn' };
  const bin = join(agentsDir(options), 'node_modules', '@zed-industries/codex-acp-linux-x64/bin/codex-acp');
  return finish('codex', sandbox, bin, [], env, options);
}

function geminiLaunch(options: LaunchOptions): AgentLaunch {
  const sandbox = makeSandbox('gemini');
  writeJson(join(sandbox.home, '.gemini', 'settings.json'), {
    // Pinned: the default "auto" model calls a router model first and retries for a long time.
    model: { name: MODELS.gemini },
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  });
  const env = {
    GEMINI_API_KEY: 'scripted-gemini-key',
    GOOGLE_GEMINI_BASE_URL: options.modelUrl,
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  const entry = join(agentsDir(options), 'node_modules', '@google/gemini-cli/bundle/gemini.js');
  return finish('gemini', sandbox, process.execPath, [entry, '--experimental-acp'], env, options);
}

export const AGENTS: AgentSpec[] = [
  {
    id: 'claude-0.23',
    label: 'Claude (zed claude-agent-acp)',
    pkg: '@zed-industries/claude-agent-acp',
    version: '0.23.1',
    entry: '@zed-industries/claude-agent-acp/dist/index.js',
    launch: claudeLaunch('claude-0.23', '@zed-industries/claude-agent-acp/dist/index.js'),
  },
  {
    id: 'claude-0.49',
    label: 'Claude (agentclientprotocol claude-agent-acp)',
    pkg: '@agentclientprotocol/claude-agent-acp',
    version: '0.49.0',
    entry: '@agentclientprotocol/claude-agent-acp/dist/index.js',
    launch: claudeLaunch('claude-0.49', '@agentclientprotocol/claude-agent-acp/dist/index.js'),
  },
  { id: 'opencode', label: 'opencode', pkg: 'opencode-linux-x64', version: '1.18.33', entry: 'opencode-linux-x64/bin/opencode', launch: opencodeLaunch },
  {
    id: 'codex',
    label: 'Codex (zed codex-acp)',
    pkg: '@zed-industries/codex-acp',
    version: '0.16.0',
    entry: '@zed-industries/codex-acp-linux-x64/bin/codex-acp',
    launch: codexLaunch,
  },
  {
    id: 'gemini',
    label: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    entry: '@google/gemini-cli/bundle/gemini.js',
    launch: geminiLaunch,
    withhold: {
      capabilities: ['readTextFile'],
      reason:
        'write_file reads the file first; an fs/read_text_file error for a missing file arrives as a plain object, ' +
        'gemini turns it into "[object Object]" and never sees ENOENT, so it cannot create files. Reading locally fixes it.',
    },
  },
];

/** Whether the agent's files are installed (`npm ci` in agents/ ran on this platform). */
export function isInstalled(spec: AgentSpec, options?: { agentsDir?: string }): boolean {
  return existsSync(join(agentsDir(options), 'node_modules', spec.entry));
}
