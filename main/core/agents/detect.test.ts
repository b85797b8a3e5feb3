import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, getAgent } from './catalog/catalog';
import { commandVersion, detectAgent, detectAgents } from './detect';
import { captureLoginShellEnv } from './login-env';
import { defaultSettings } from './settings';
import { makeTempDir, writeFakeAgent, writeFakeLoginShell, writeScript } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let loginBin: string;
let emptyBin: string;

beforeEach(() => {
  tmp = makeTempDir();
  loginBin = join(tmp.dir, 'login-bin');
  emptyBin = join(tmp.dir, 'empty-bin');
  mkdirSync(loginBin);
  mkdirSync(emptyBin);
});
afterEach(() => tmp.cleanup());

describe('detecting installed agents', () => {
  it('finds an agent that only the login shell puts on PATH, and reads its version', async () => {
    const agentPath = writeFakeAgent(loginBin, 'claude-agent-acp', '0.49.2');
    const shell = writeFakeLoginShell(join(tmp.dir, 'fake-shell'), loginBin);
    // This process's PATH (system folders only) does not have the agent.
    const processEnv = { PATH: `${emptyBin}:/usr/bin:/bin`, SHELL: shell };
    const catalog = buildCatalog(defaultSettings());
    const claude = getAgent(catalog, 'claude');

    const withoutLogin = await detectAgent(claude, { env: processEnv });
    expect(withoutLogin.installed).toBe(false);
    expect(withoutLogin.via).not.toBe('path');
    expect(withoutLogin.fix).toContain('npm install -g @agentclientprotocol/claude-agent-acp');

    const login = await captureLoginShellEnv({ baseEnv: processEnv });
    expect(login.source).toBe('login-shell');
    const detected = await detectAgent(claude, { env: login.env });
    expect(detected).toEqual({ id: 'claude-acp', installed: true, runnable: true, via: 'path', commandPath: agentPath, version: '0.49.2' });
  });

  it('reports npx-runnable agents with their pinned version, and the rest as not runnable, in catalog order', async () => {
    writeScript(join(loginBin, 'npx'), 'exit 0');
    writeFakeAgent(loginBin, 'goose', '1.9.0');
    const fixtures = join(tmp.dir, 'dist', 'fixtures');
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(join(fixtures, 'fixture-agent.cjs'), '');
    const catalog = buildCatalog(defaultSettings(), { distDir: join(tmp.dir, 'dist') });
    const results = await detectAgents(catalog, { env: { PATH: loginBin } });
    expect(results.map((r) => r.id)).toEqual(catalog.map((a) => a.id));
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId.gemini).toMatchObject({ installed: false, runnable: true, via: 'npx', version: '0.61.0' });
    expect(byId.goose).toMatchObject({ installed: true, via: 'path', version: '1.9.0' });
    expect(byId.kimi).toMatchObject({ installed: false, runnable: false });
    expect(byId.kimi!.problem).toContain('`kimi` is not on the login-shell PATH');
    expect(byId.demo).toMatchObject({ installed: true, via: 'node-script', version: __WORKBENCH_VERSION__ });
  });

  it('does not hang on an agent that starts serving instead of printing a version', async () => {
    writeScript(join(loginBin, 'opencode'), 'sleep 30');
    const started = Date.now();
    const detected = await detectAgent(getAgent(buildCatalog(defaultSettings()), 'opencode'), { env: { PATH: `${loginBin}:/usr/bin:/bin` }, versionTimeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(detected).toMatchObject({ installed: true, runnable: true });
    expect(detected.version).toBeUndefined();
    expect(detected.problem).toContain('did not finish within 300 ms');
  });
});

describe('commandVersion', () => {
  it('finds a version on stderr and reports a failing command', async () => {
    const stderrOnly = writeScript(join(loginBin, 'v-stderr'), 'echo "tool version 3.1.4-beta.2" >&2');
    expect(await commandVersion(stderrOnly, { env: { PATH: loginBin } })).toEqual({ version: '3.1.4-beta.2', firstLine: 'tool version 3.1.4-beta.2' });
    const failing = writeScript(join(loginBin, 'v-fail'), 'echo "unknown flag --version"; exit 2');
    expect(await commandVersion(failing, { env: { PATH: loginBin } })).toEqual({
      firstLine: 'unknown flag --version',
      error: `\`${failing} --version\` exited with code 2`,
    });
  });
});
