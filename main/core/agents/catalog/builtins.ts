/**
 * Built-in definitions of the well-known ACP agents (acp-reference §20–21, real-agents.md).
 * Ids are the ACP registry ids so a registry import updates the same entry instead of adding a
 * twin; short aliases (`claude`, `codex`, `copilot`) keep `--agent` pleasant to type.
 * Per-agent quirks live here and nowhere else.
 */
import type { ClientCapabilityOverrides, AgentDefinition, AgentQuirk, EnvVarSpec, InstallInfo, LaunchCandidate } from '../types';

interface BuiltinInput {
  id: string;
  aliases?: string[];
  name: string;
  description: string;
  /** The installed command and its ACP args. */
  bin: { command: string; args: string[] };
  /** npm package pinned at the version verified in acp-reference §21; omitted for binary-only agents. */
  npm?: { package: string; version: string };
  installUrl?: string;
  installText?: string;
  env?: Record<string, string>;
  envVars?: EnvVarSpec[];
  quirks?: AgentQuirk[];
  homepage?: string;
  minNodeMajor?: number;
  /** Capabilities not to advertise to this agent by default (a known agent bug); settings can turn them back on. */
  clientCapabilities?: ClientCapabilityOverrides;
}

function builtin(input: BuiltinInput): AgentDefinition {
  const launch: LaunchCandidate[] = [{ kind: 'path', command: input.bin.command, args: input.bin.args }];
  if (input.npm) launch.push({ kind: 'npx', package: `${input.npm.package}@${input.npm.version}`, args: input.bin.args });
  const install: InstallInfo = input.npm
    ? {
        text: input.installText ?? `npm install -g ${input.npm.package} (or let the workbench run it through npx).`,
        npmPackage: input.npm.package,
        ...(input.installUrl ? { url: input.installUrl } : {}),
      }
    : {
        text: input.installText ?? `Install ${input.name} from its releases and make sure \`${input.bin.command}\` is on your PATH.`,
        ...(input.installUrl ? { url: input.installUrl } : {}),
      };
  return {
    id: input.id,
    aliases: input.aliases ?? [],
    name: input.name,
    description: input.description,
    source: 'builtin',
    launch,
    env: input.env ?? {},
    envVars: input.envVars ?? [],
    install,
    quirks: input.quirks ?? [],
    cwd: 'session',
    ...(input.npm ? { version: input.npm.version } : {}),
    ...(input.homepage ? { homepage: input.homepage } : {}),
    ...(input.minNodeMajor ? { minNodeMajor: input.minNodeMajor } : {}),
    ...(input.clientCapabilities ? { clientCapabilities: input.clientCapabilities } : {}),
    disabled: false,
  };
}

const noExitOnEof: AgentQuirk = {
  id: 'no-exit-on-eof',
  description: 'Does not exit when stdin closes: the workbench stops it with SIGTERM and kills its process group.',
};

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  builtin({
    id: 'claude-acp',
    aliases: ['claude'],
    name: 'Claude Agent',
    description: "Anthropic's Claude Code through the ACP adapter (claude-agent-acp).",
    bin: { command: 'claude-agent-acp', args: [] },
    npm: { package: '@agentclientprotocol/claude-agent-acp', version: '0.101.0' },
    homepage: 'https://github.com/agentclientprotocol/claude-agent-acp',
    minNodeMajor: 22,
    envVars: [
      { name: 'ANTHROPIC_API_KEY', secret: true, required: false, description: 'API key; alternatively log in through the agent (terminal login).' },
    ],
    quirks: [
      {
        id: 'is-sandbox-as-root',
        description: 'Running as root, session/new fails with an opaque -32603 unless IS_SANDBOX=1 is set.',
        env: { IS_SANDBOX: '1' },
        when: 'root',
      },
      {
        id: 'terminal-auth-only-if-advertised',
        description: 'Offers its login methods only when the client advertises auth.terminal.',
      },
      { id: 'plan-sent-twice', description: 'Some versions send each plan twice.' },
    ],
  }),
  builtin({
    id: 'codex-acp',
    aliases: ['codex'],
    name: 'Codex',
    description: "OpenAI's Codex through the ACP adapter (codex-acp).",
    bin: { command: 'codex-acp', args: [] },
    npm: { package: '@agentclientprotocol/codex-acp', version: '2.6.0' },
    homepage: 'https://github.com/agentclientprotocol/codex-acp',
    envVars: [
      { name: 'OPENAI_API_KEY', secret: true, required: false, description: 'API key for the api-key login method; alternatively log in with ChatGPT.' },
      { name: 'CODEX_API_KEY', secret: true, required: false, description: 'Alternative name for the API key.' },
    ],
    quirks: [
      { id: 'needs-bubblewrap', description: 'On Linux its sandbox needs bubblewrap (`bwrap`) installed.' },
      { id: 'codex-home-outside-tmpdir', description: 'CODEX_HOME must not be inside TMPDIR.' },
      noExitOnEof,
      { id: 'uuid-request-ids', description: 'Sends its requests to the client with UUID string ids.' },
    ],
  }),
  builtin({
    id: 'gemini',
    name: 'Gemini CLI',
    description: "Google's Gemini CLI in ACP mode.",
    bin: { command: 'gemini', args: ['--acp'] },
    npm: { package: '@google/gemini-cli', version: '0.61.0' },
    homepage: 'https://github.com/google-gemini/gemini-cli',
    envVars: [
      { name: 'GEMINI_API_KEY', secret: true, required: false, description: 'API key for the gemini-api-key method; alternatively log in with Google.' },
    ],
    quirks: [
      { id: 'experimental-acp-flag', description: 'Versions before --acp need --experimental-acp (add it as an extra arg in settings).' },
      {
        id: 'fs-read-error-blocks-create',
        description:
          'Cannot create a new file when fs/read_text_file answers with an error (it stringifies the error object), so fs.readTextFile is not advertised to it by default; it then reads files itself. Turn it back on in agentOverrides.gemini.clientCapabilities.',
      },
    ],
    clientCapabilities: { fs: { readTextFile: false } },
  }),
  builtin({
    id: 'opencode',
    name: 'OpenCode',
    description: 'The opencode terminal coding agent in ACP mode.',
    bin: { command: 'opencode', args: ['acp'] },
    npm: { package: 'opencode-ai', version: '1.18.33' },
    homepage: 'https://opencode.ai',
    quirks: [{ id: 'slow-initialize', description: 'initialize can take a few seconds.' }],
  }),
  builtin({
    id: 'goose',
    name: 'goose',
    description: "Block's open-source goose agent in ACP mode.",
    bin: { command: 'goose', args: ['acp'] },
    installUrl: 'https://block.github.io/goose/docs/getting-started/installation',
    installText: 'Install goose with its installer or from its GitHub releases; `goose` must be on your PATH.',
    homepage: 'https://github.com/block/goose',
  }),
  builtin({
    id: 'github-copilot-cli',
    aliases: ['copilot'],
    name: 'GitHub Copilot',
    description: 'The GitHub Copilot CLI in ACP mode.',
    bin: { command: 'copilot', args: ['--acp'] },
    npm: { package: '@github/copilot', version: '1.0.102' },
    homepage: 'https://github.com/github/copilot-cli',
  }),
  builtin({
    id: 'github-copilot',
    name: 'GitHub Copilot (language server)',
    description: 'The older Copilot language-server ACP entry.',
    bin: { command: 'copilot-language-server', args: ['--acp'] },
    npm: { package: '@github/copilot-language-server', version: '1.539.0' },
  }),
  builtin({
    id: 'qwen-code',
    aliases: ['qwen'],
    name: 'Qwen Code',
    description: 'Qwen Code in ACP mode.',
    bin: { command: 'qwen', args: ['--acp', '--experimental-skills'] },
    npm: { package: '@qwen-code/qwen-code', version: '0.24.4' },
    minNodeMajor: 22,
  }),
  builtin({
    id: 'auggie',
    name: 'Auggie CLI',
    description: "Augment Code's CLI agent in ACP mode.",
    bin: { command: 'auggie', args: ['--acp'] },
    npm: { package: '@augmentcode/auggie', version: '0.36.0' },
    env: { AUGMENT_DISABLE_AUTO_UPDATE: '1' },
  }),
  builtin({
    id: 'cline',
    name: 'Cline',
    description: 'Cline in ACP mode.',
    bin: { command: 'cline', args: ['--acp'] },
    npm: { package: 'cline', version: '3.0.65' },
  }),
  builtin({
    id: 'kilo',
    name: 'Kilo',
    description: 'Kilo Code CLI in ACP mode.',
    bin: { command: 'kilo', args: ['acp'] },
    npm: { package: '@kilocode/cli', version: '7.8.1' },
  }),
  builtin({
    id: 'factory-droid',
    aliases: ['droid'],
    name: 'Factory Droid',
    description: "Factory's Droid in ACP daemon mode.",
    bin: { command: 'droid', args: ['exec', '--output-format', 'acp-daemon'] },
    npm: { package: 'droid', version: '0.215.0' },
    env: { DROID_DISABLE_AUTO_UPDATE: 'true', FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' },
  }),
  builtin({
    id: 'grok-build',
    aliases: ['grok'],
    name: 'Grok Build',
    description: "xAI's Grok coding agent over stdio.",
    bin: { command: 'grok', args: ['agent', 'stdio'] },
    npm: { package: '@xai-official/grok', version: '1.0.41' },
  }),
  builtin({
    id: 'pi-acp',
    aliases: ['pi'],
    name: 'pi',
    description: 'ACP adapter for the pi coding agent.',
    bin: { command: 'pi-acp', args: [] },
    npm: { package: 'pi-acp', version: '0.0.34' },
    installText: 'npm install -g pi-acp @earendil-works/pi-coding-agent (the adapter needs `pi` on your PATH).',
    minNodeMajor: 22,
    quirks: [
      { id: 'needs-pi', description: 'Needs the pi coding agent (`pi`) installed separately.' },
      { id: 'terminal-output-in-meta', description: 'Sends terminal output in _meta even when the client said terminal: false.' },
    ],
  }),
  builtin({
    id: 'cursor',
    name: 'Cursor',
    description: "Cursor's CLI agent in ACP mode.",
    bin: { command: 'cursor-agent', args: ['acp'] },
    installUrl: 'https://cursor.com/cli',
  }),
  builtin({
    id: 'kimi',
    name: 'Kimi CLI',
    description: "Moonshot's Kimi CLI in ACP mode.",
    bin: { command: 'kimi', args: ['acp'] },
    installUrl: 'https://github.com/MoonshotAI/kimi-cli',
  }),
  builtin({
    id: 'junie',
    name: 'Junie',
    description: "JetBrains' Junie agent in ACP mode.",
    bin: { command: 'junie', args: ['--acp=true'] },
    installUrl: 'https://www.jetbrains.com/junie/',
  }),
  builtin({
    id: 'devin',
    name: 'Devin',
    description: "Cognition's Devin CLI in ACP mode.",
    bin: { command: 'devin', args: ['acp'] },
  }),
  builtin({
    id: 'mistral-vibe',
    aliases: ['vibe'],
    name: 'Mistral Vibe',
    description: "Mistral's Vibe coding agent (ACP entry point).",
    bin: { command: 'vibe-acp', args: [] },
    installUrl: 'https://github.com/mistralai/mistral-vibe',
  }),
  builtin({
    id: 'amp-acp',
    aliases: ['amp'],
    name: 'Amp',
    description: 'Third-party ACP wrapper for Amp.',
    bin: { command: 'amp-acp', args: [] },
  }),
  builtin({
    id: 'stakpak',
    name: 'Stakpak',
    description: 'Stakpak in ACP mode.',
    bin: { command: 'stakpak', args: ['acp'] },
  }),
  builtin({
    id: 'harn',
    name: 'Harn',
    description: 'Harn serving ACP.',
    bin: { command: 'harn', args: ['serve', 'acp'] },
  }),
];

export const DEMO_AGENT_ID = 'demo';

/** Every id and alias a custom agent may not take. */
export function reservedAgentIds(): Set<string> {
  const ids = new Set<string>([DEMO_AGENT_ID]);
  for (const agent of BUILTIN_AGENTS) {
    ids.add(agent.id);
    for (const alias of agent.aliases) ids.add(alias);
  }
  return ids;
}
