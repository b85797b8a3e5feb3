import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from './catalog/catalog';
import { LaunchError, resolveAgentLaunch, resolveLaunch, type LaunchContext } from './launch';
import { clearLoginShellEnvCache } from './login-env';
import { SecretStore } from './secrets';
import { addCustomAgent, defaultSettings, setAgentOverride, type WorkbenchSettings } from './settings';
import { makeTempDir, writeFakeAgent, writeScript } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let bin: string;
let session: string;

beforeEach(() => {
  tmp = makeTempDir();
  bin = join(tmp.dir, 'bin');
  session = join(tmp.dir, 'project');
  mkdirSync(bin, { recursive: true });
  mkdirSync(session);
});
afterEach(() => tmp.cleanup());

function ctx(settings: WorkbenchSettings = defaultSettings(), extra: Partial<LaunchContext> = {}): LaunchContext {
  return {
    catalog: buildCatalog(settings, { distDir: join(tmp.dir, 'dist'), platform: 'linux-x86_64' }),
    env: { PATH: bin, HOME: join(tmp.dir, 'home') },
    sessionCwd: session,
    isRoot: false,
    ...extra,
  };
}

describe('resolveLaunch', () => {
  it('prefers the installed binary on PATH, in the session folder', () => {
    const path = writeFakeAgent(bin, 'claude-agent-acp', '0.49.0');
    writeScript(join(bin, 'npx'), 'exit 0');
    const launch = resolveLaunch('claude', ctx());
    expect(launch).toMatchObject({ agentId: 'claude-acp', source: 'builtin', command: path, args: [], cwd: session, via: 'path' });
    expect(launch.display).toBe(path);
  });

  it('falls back to npx with the pinned package', () => {
    const npx = writeScript(join(bin, 'npx'), 'exit 0');
    const launch = resolveLaunch('gemini', ctx());
    expect(launch.command).toBe(npx);
    expect(launch.args).toEqual(['-y', '@google/gemini-cli@0.61.0', '--acp']);
    expect(launch.via).toBe('npx');
    expect(launch.display).toBe(`${npx} -y @google/gemini-cli@0.61.0 --acp`);
  });

  it('explains how to install an agent that cannot be started', () => {
    let error: unknown;
    try {
      resolveLaunch('gemini', ctx());
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(LaunchError);
    expect((error as LaunchError).code).toBe('not_installed');
    expect((error as LaunchError).message).toContain('Gemini CLI (gemini) cannot be started: it is not installed (`gemini` is not on the login-shell PATH; npx');
    expect((error as LaunchError).fix).toBe('To install: npm install -g @google/gemini-cli (or let the workbench run it through npx).');
  });

  it('lists the known ids for an unknown one', () => {
    expect(() => resolveLaunch('nope', ctx())).toThrow(/unknown agent "nope"\. Known agents: claude-acp, .*, demo/);
    try {
      resolveLaunch('nope', ctx());
    } catch (err) {
      expect((err as LaunchError).code).toBe('unknown_agent');
      expect((err as LaunchError).knownIds).toContain('goose');
    }
  });

  it('sets IS_SANDBOX=1 for Claude only when running as root, unless the user set it', () => {
    writeFakeAgent(bin, 'claude-agent-acp', '1.0.0');
    expect(resolveLaunch('claude-acp', ctx(defaultSettings(), { isRoot: true })).env.IS_SANDBOX).toBe('1');
    expect(resolveLaunch('claude-acp', ctx(defaultSettings(), { isRoot: false })).env.IS_SANDBOX).toBeUndefined();
    const settings = { ...defaultSettings(), agentOverrides: { 'claude-acp': { env: { IS_SANDBOX: '0' } } } };
    expect(resolveLaunch('claude-acp', ctx(settings, { isRoot: true })).env.IS_SANDBOX).toBe('0');
  });

  it('layers the environment: base < agent env < override < secrets', () => {
    writeFakeAgent(bin, 'auggie', '1.0.0');
    const settings = { ...defaultSettings(), agentOverrides: { auggie: { env: { LEVEL: 'override', KEEP: 'o' } } } };
    const launch = resolveLaunch('auggie', ctx(settings, {
      env: { PATH: bin, LEVEL: 'base', BASE_ONLY: 'b' },
      secrets: { envFor: (id): Record<string, string> => (id === 'auggie' ? { LEVEL: 'secret', AUGMENT_TOKEN: 's3cret' } : {}) },
    }));
    expect(launch.env).toMatchObject({ PATH: bin, BASE_ONLY: 'b', AUGMENT_DISABLE_AUTO_UPDATE: '1', KEEP: 'o', LEVEL: 'secret', AUGMENT_TOKEN: 's3cret' });
    expect(launch.display).not.toContain('s3cret');
  });

  it('runs custom agents with their args and working-directory rule', () => {
    const tool = writeFakeAgent(bin, 'my-agent', '1.0.0');
    const settings: WorkbenchSettings = {
      ...defaultSettings(),
      customAgents: [
        { id: 'here', name: 'Here', command: 'my-agent', args: ['--stdio'], env: { MODE: 'x' }, cwd: 'session' },
        { id: 'fixed', name: 'Fixed', command: tool, args: [], env: {}, cwd: { folder: '~/work' } },
        { id: 'missing', name: 'Missing', command: 'not-there', args: [], env: {}, cwd: 'session' },
      ],
    };
    expect(resolveLaunch('here', ctx(settings))).toMatchObject({ command: tool, args: ['--stdio'], cwd: session, source: 'custom' });
    expect(resolveLaunch('here', ctx(settings)).env.MODE).toBe('x');
    expect(resolveLaunch('fixed', ctx(settings)).cwd).toBe(join(tmp.dir, 'home', 'work'));
    expect(() => resolveLaunch('missing', ctx(settings))).toThrow('`not-there` is not on the login-shell PATH');
  });

  it('runs the demo agent with this Node when the app is built', () => {
    expect(() => resolveLaunch('demo', ctx())).toThrow(/fixture-agent\.cjs does not exist \(is the app built\?\)/);
    const fixtures = join(tmp.dir, 'dist', 'fixtures');
    mkdirSync(join(fixtures, 'scenarios'), { recursive: true });
    writeFileSync(join(fixtures, 'fixture-agent.cjs'), '');
    const launch = resolveLaunch('demo', ctx());
    expect(launch).toMatchObject({
      command: process.execPath,
      args: [join(fixtures, 'fixture-agent.cjs'), '--scenario', join(fixtures, 'scenarios', 'demo.json')],
      via: 'node-script',
      source: 'demo',
    });
  });

  it('refuses a disabled agent unless asked explicitly', () => {
    writeFakeAgent(bin, 'goose', '1.0.0');
    const settings = { ...defaultSettings(), agentOverrides: { goose: { disabled: true } } };
    expect(() => resolveLaunch('goose', ctx(settings))).toThrow('goose (goose) is disabled in settings.');
    expect(resolveLaunch('goose', ctx(settings, { allowDisabled: true })).via).toBe('path');
  });

  it('uses a registry binary once it is on PATH, and says how to get it before', () => {
    const settings: WorkbenchSettings = {
      ...defaultSettings(),
      registryAgents: [
        {
          id: 'nativ',
          name: 'Nativ',
          version: '2.0.0',
          description: 'd',
          source: 'f',
          importedAt: 't',
          distribution: { binary: { 'linux-x86_64': { archive: 'https://example.invalid/nativ.tgz', cmd: './bin/nativ', args: ['acp'], sha256: 'a'.repeat(64) } } },
        },
      ],
    };
    expect(() => resolveLaunch('nativ', ctx(settings))).toThrow(/Needs download: get https:\/\/example\.invalid\/nativ\.tgz, check that its SHA-256 is a{64}, extract it and put nativ/);
    const path = writeFakeAgent(bin, 'nativ', '2.0.0');
    expect(resolveLaunch('nativ', ctx(settings))).toMatchObject({ command: path, args: ['acp'], via: 'path', source: 'registry' });
  });
});

describe('resolveAgentLaunch', () => {
  it('puts settings, the login-shell env and the secret store together', async () => {
    clearLoginShellEnvCache();
    const configDir = join(tmp.dir, 'config');
    const dataDir = join(tmp.dir, 'data');
    const tool = writeFakeAgent(bin, 'tool-agent', '1.0.0');
    await addCustomAgent(configDir, { name: 'Tool', command: 'tool-agent', env: { PLAIN: 'yes' } });
    await setAgentOverride(configDir, 'tool', { args: ['--verbose'] });
    const secrets = await SecretStore.open(dataDir);
    await secrets.set('tool', 'TOOL_KEY', 'k-123456');
    const result = await resolveAgentLaunch({
      agentId: 'tool',
      configDir,
      dataDir,
      sessionCwd: session,
      processEnv: { PATH: bin, ACP_WORKBENCH_LOGIN_SHELL: '0' },
    });
    expect(result.launch).toMatchObject({ command: tool, args: ['--verbose'], cwd: session });
    expect(result.launch.env).toMatchObject({ PLAIN: 'yes', TOOL_KEY: 'k-123456' });
    expect(result.loginEnv.source).toBe('process');
    expect(result.warnings).toEqual(['login-shell environment not used: ACP_WORKBENCH_LOGIN_SHELL=0: using this process environment']);
  });
});
