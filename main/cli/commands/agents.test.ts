import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { makeTempDir, writeFakeAgent, writeFakeLoginShell } from '../../core/agents/test-support/fake-bin';
import { BUILT_CLI, runBuiltCli } from '../test-support/run-cli';
import { FIXTURE_AGENT } from '../../core/acp/test-support/fixture-world';

const registryFixture = resolve(__dirname, '..', '..', 'core', 'agents', 'fixtures', 'registry-v1.json');

let tmp: ReturnType<typeof makeTempDir>;
let env: NodeJS.ProcessEnv;
let dirs: string[];
let loginBin: string;

beforeEach(() => {
  tmp = makeTempDir('acpwb-cli-agents-');
  loginBin = join(tmp.dir, 'login-bin');
  mkdirSync(loginBin);
  const shell = writeFakeLoginShell(join(tmp.dir, 'fake-shell'), loginBin);
  // The CLI's own PATH has system folders only; agents in loginBin are visible only through the login shell.
  env = { SHELL: shell, PATH: '/usr/bin:/bin', ACP_WORKBENCH_LOGIN_SHELL: '' };
  dirs = ['--config-dir', join(tmp.dir, 'config'), '--data-dir', join(tmp.dir, 'data')];
});
afterEach(() => tmp.cleanup());

/** Run `acp-workbench ARGS` with the temp folders (before a `--`, where flags still count). */
function cli(args: string[]) {
  const dash = args.indexOf('--');
  const withDirs = dash < 0 ? [...args, ...dirs] : [...args.slice(0, dash), ...dirs, ...args.slice(dash)];
  return runBuiltCli(withDirs, { env, cwd: tmp.dir });
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('acp-workbench agents list', () => {
  it('lists every agent with source, installed and version, finding agents through the login shell', async () => {
    writeFakeAgent(loginBin, 'goose', '1.9.3');
    const r = await cli(['agents', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const agents = jsonLines(r.stdout);
    expect(agents.every((a) => a.type === 'agent')).toBe(true);
    const goose = agents.find((a) => a.id === 'goose');
    expect(goose).toMatchObject({ name: 'goose', source: 'builtin', installed: true, version: '1.9.3', command: join(loginBin, 'goose') });
    expect(agents.find((a) => a.id === 'demo')).toMatchObject({ source: 'demo', installed: true });
    expect(agents.find((a) => a.id === 'kimi')).toMatchObject({ installed: false, runnable: false, version: null });
  });

  it('prints a table by default', async () => {
    writeFakeAgent(loginBin, 'goose', '1.9.3');
    const r = await cli(['agents']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SOURCE\s+INSTALLED\s+VERSION$/);
    expect(r.stdout).toMatch(/^goose\s+goose\s+builtin\s+yes\s+1\.9\.3$/m);
    expect(r.stdout).toMatch(/^kimi\s+Kimi CLI\s+builtin\s+no$/m);
  });

  it('still lists with a broken settings file, reporting it, and refuses to change it', async () => {
    mkdirSync(join(tmp.dir, 'config'));
    const file = join(tmp.dir, 'config', 'settings.json');
    writeFileSync(file, '{ "customAgents": [ }');
    const list = await cli(['agents', 'list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`${file}: (top level): not valid JSON at line 1, column 21`);
    const add = await cli(['agents', 'add', 'X', '--', 'x']);
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('has errors; fix them');
    expect(readFileSync(file, 'utf8')).toBe('{ "customAgents": [ }');
  });
});

describe('acp-workbench agents add / remove', () => {
  it('adds a custom agent to settings.json and lists it, then removes it', async () => {
    writeFakeAgent(loginBin, 'my-agent', '0.3.0');
    const added = await cli(['agents', 'add', 'My Agent', '--env', 'LOG_LEVEL=debug', '--', 'my-agent', '--acp', '--fast']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added custom agent "my-agent" (My Agent): my-agent --acp --fast');
    expect(added.stderr).toBe('');
    const settings = JSON.parse(readFileSync(join(tmp.dir, 'config', 'settings.json'), 'utf8'));
    expect(settings.customAgents).toEqual([
      { id: 'my-agent', name: 'My Agent', command: 'my-agent', args: ['--acp', '--fast'], env: { LOG_LEVEL: 'debug' }, cwd: 'session' },
    ]);

    const listed = jsonLines((await cli(['agents', 'list', '--json'])).stdout).find((a) => a.id === 'my-agent');
    expect(listed).toMatchObject({ source: 'custom', installed: true, version: '0.3.0' });

    const removed = await cli(['agents', 'remove', 'my-agent']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('Removed "my-agent" (My Agent).\n');
    expect(JSON.parse(readFileSync(join(tmp.dir, 'config', 'settings.json'), 'utf8')).customAgents).toEqual([]);
  });

  it('warns about a missing command and a secret-looking variable', async () => {
    const r = await cli(['agents', 'add', 'Ghost', '--env', 'API_KEY=x', '--json', '--', 'ghost-agent']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ type: 'added', id: 'ghost', command: 'ghost-agent' });
    expect(r.stderr).toContain('API_KEY looks like a secret');
    expect(r.stderr).toContain('`ghost-agent` was not found on your PATH (yet)');
  });

  it('explains usage mistakes', async () => {
    const noDash = await cli(['agents', 'add', 'X', 'x']);
    expect(noDash.code).toBe(2);
    expect(noDash.stderr).toContain('give the agent command after "--"');
    const badEnv = await cli(['agents', 'add', 'X', '--env', 'NOVALUE', '--', 'x']);
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('--env needs NAME=VALUE, got "NOVALUE"');
    const builtin = await cli(['agents', 'remove', 'claude']);
    expect(builtin.code).toBe(2);
    expect(builtin.stderr).toContain('"claude-acp" is a built-in agent and cannot be removed. To hide it, set "agentOverrides": {"claude-acp": {"disabled": true}}');
    const unknown = await cli(['agents', 'remove', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no custom or imported agent has the id "nope"');
    const sub = await cli(['agents', 'frob']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown subcommand "frob"');
  });
});

describe('acp-workbench agents import-registry', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(readFileSync(registryFixture));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('imports from a file; the agents are listed as registry agents; re-import reports them unchanged', async () => {
    const r = await cli(['agents', 'import-registry', registryFixture]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Imported registry 1.0.0 from ${registryFixture}`);
    expect(r.stdout).toMatch(/added: example-npx, example-uvx, .*gemini/);
    expect(r.stdout).toContain('invalid entry agents[5].id');
    const listed = jsonLines((await cli(['agents', 'list', '--json'])).stdout);
    expect(listed.find((a) => a.id === 'example-npx')).toMatchObject({ source: 'registry', version: '1.2.3' });
    expect(listed.find((a) => a.id === 'gemini')).toMatchObject({ source: 'registry' });
    const again = await cli(['agents', 'import-registry', registryFixture, '--json']);
    const result = jsonLines(again.stdout)[0]!;
    expect(result).toMatchObject({ type: 'imported', added: [] });
    expect(result.unchanged).toContain('example-npx');
    const removed = await cli(['agents', 'remove', 'example-npx']);
    expect(removed.code, removed.stderr).toBe(0);
  });

  it('imports from a URL', async () => {
    const r = await cli(['agents', 'import-registry', `${base}/registry.json`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ type: 'imported', source: `${base}/registry.json` });
  });

  it('fails with a clear message when the registry cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const r = await cli(['agents', 'import-registry', `http://127.0.0.1:${port}/registry.json`, '--timeout', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('you may be offline');
  });
});

describe('acp-workbench agents doctor', () => {
  it('checks one agent found through the login shell and says what it did not check', async () => {
    writeFakeAgent(loginBin, 'goose', '1.9.3');
    const r = await cli(['agents', 'doctor', 'goose', '--no-probe']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Environment: from your login shell ${env.SHELL}`);
    expect(r.stdout).toContain('goose (goose, builtin): ok');
    expect(r.stdout).toContain(`installed: ${join(loginBin, 'goose')} (version 1.9.3)`);
    expect(r.stdout).toContain('initialize and authentication were not checked');
  });

  it('warns about secrets the desktop app encrypted, which the CLI cannot read', async () => {
    writeFakeAgent(loginBin, 'goose', '1.9.3');
    mkdirSync(join(tmp.dir, 'data'), { recursive: true });
    writeFileSync(join(tmp.dir, 'data', 'secrets.json'), JSON.stringify({ version: 2, agents: { goose: { GOOSE_KEY: { encrypted: 'electron-safeStorage', data: 'AAAA' } } } }));
    const r = await cli(['agents', 'doctor', 'goose', '--no-probe']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('goose: secrets GOOSE_KEY were encrypted by the desktop app and cannot be read here');
  });

  it('probes an agent over ACP: initialize answered, a session opens', async () => {
    const r = await cli(['agents', 'doctor', 'demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answers initialize');
    expect(r.stdout).toContain('opens a session');
  });

  it('says when an agent needs a login, and which methods it offers', async () => {
    const add = await cli(['agents', 'add', 'Needs Login', '--', process.execPath, FIXTURE_AGENT, '--scenario', 'auth-required']);
    expect(add.code, add.stderr).toBe(0);
    const r = await cli(['agents', 'doctor', 'needs-login']);
    expect(r.stdout).toContain('needs a login before it opens a session');
    expect(r.stdout).toContain('offers login methods');
    // Its terminal login is named with the command to run, the method's env and args included.
    expect(r.stdout).toMatch(/run `FIXTURE_LOGIN=1 \S*node\S* \S+ --scenario auth-required --login` in a terminal \(Log in in a terminal\)/);
  });

  it('exits 3 with the fix when the agent cannot be started', async () => {
    const r = await cli(['agents', 'doctor', 'kimi']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('error Kimi CLI (kimi) cannot be started');
    expect(r.stdout).toContain('fix: To install:');
  });

  it('checks every agent, as JSON too, and rejects an unknown id', async () => {
    const r = await cli(['agents', 'doctor', '--json', '--no-probe']);
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toMatchObject({ type: 'environment', source: 'login-shell' });
    expect(lines.filter((l) => l.type === 'doctor').length).toBeGreaterThan(20);
    const unknown = await cli(['agents', 'doctor', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown agent "nope". Known agents: claude-acp');
  });
});

describe('acp-workbench agents secrets', () => {
  const VALUE = 'sk-test-7f3a9c1e5b';
  const secretsFile = () => join(tmp.dir, 'data', 'secrets.json');
  const stored = () => JSON.parse(readFileSync(secretsFile(), 'utf8')).agents as Record<string, Record<string, unknown>>;

  it('sets a value piped on stdin (never echoed), lists it by name, and deletes it', async () => {
    const set = await runBuiltCli(['agents', 'secrets', 'goose', 'set', 'GOOSE_API_KEY', ...dirs], { env, cwd: tmp.dir, input: `${VALUE}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`Stored GOOSE_API_KEY for goose in ${secretsFile()} (not encrypted, file mode 0600).\n`);
    expect(stored()).toEqual({ goose: { GOOSE_API_KEY: VALUE } });
    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);

    const list = await cli(['agents', 'secrets', 'goose']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+READABLE HERE\nGOOSE_API_KEY\s+yes \(not encrypted, file mode 0600\)\n/);
    const json = await cli(['agents', 'secrets', 'goose', '--json']);
    expect(jsonLines(json.stdout)).toEqual([{ type: 'secret', agent: 'goose', name: 'GOOSE_API_KEY', state: 'plain', readable: true, note: null }]);

    const del = await cli(['agents', 'secrets', 'goose', 'delete', 'GOOSE_API_KEY', '--json']);
    expect(del.code, del.stderr).toBe(0);
    expect(jsonLines(del.stdout)).toEqual([{ type: 'secret-deleted', agent: 'goose', name: 'GOOSE_API_KEY' }]);
    expect(stored()).toEqual({});
    const empty = await cli(['agents', 'secrets', 'goose']);
    expect(empty.stdout).toContain('No secrets stored for goose. Set one with: acp-workbench agents secrets goose set NAME');

    for (const r of [set, list, json, del, empty]) expect(r.stdout + r.stderr).not.toContain(VALUE);
  });

  it('resolves aliases, answers --json for set, and says which values the desktop app encrypted', async () => {
    mkdirSync(join(tmp.dir, 'data'), { recursive: true });
    writeFileSync(secretsFile(), JSON.stringify({ version: 2, agents: { 'claude-acp': { OLD_KEY: { encrypted: 'electron-safeStorage', data: 'AAAA' } } } }));
    const set = await runBuiltCli(['agents', 'secrets', 'claude', 'set', 'ANTHROPIC_API_KEY', '--json', ...dirs], { env, cwd: tmp.dir, input: VALUE });
    expect(set.code, set.stderr).toBe(0);
    expect(jsonLines(set.stdout)).toEqual([{ type: 'secret-set', agent: 'claude-acp', name: 'ANTHROPIC_API_KEY', encrypted: false, file: secretsFile() }]);
    const list = await cli(['agents', 'secrets', 'claude-acp', '--json']);
    expect(jsonLines(list.stdout)).toMatchObject([
      { name: 'ANTHROPIC_API_KEY', state: 'plain', readable: true },
      { name: 'OLD_KEY', state: 'unreadable', readable: false, note: expect.stringContaining('set it again here') },
    ]);
    const text = await cli(['agents', 'secrets', 'claude-acp']);
    expect(text.stdout).toMatch(/^OLD_KEY\s+no$/m);
    expect(text.stderr).toContain('OLD_KEY is encrypted by "electron-safeStorage"');
    expect(set.stdout + list.stdout + text.stdout + text.stderr).not.toContain(VALUE);
  });

  it('refuses values on the command line, empty or multi-line stdin, bad names and unknown agents (exit 2, nothing stored)', async () => {
    const run = (args: string[], input = '') => runBuiltCli(['agents', 'secrets', ...args, ...dirs], { env, cwd: tmp.dir, input });
    const inArgv = await run(['goose', 'set', 'K', VALUE]);
    expect(inArgv.code).toBe(2);
    expect(inArgv.stderr).toContain('the value is read from stdin, never from the command line');
    const empty = await run(['goose', 'set', 'K']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('stdin was empty; pipe the value in');
    const twoLines = await run(['goose', 'set', 'K'], `${VALUE}\nsecond\n`);
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toContain('stdin had 2 lines; pipe only the value');
    const badName = await run(['goose', 'set', 'MY-KEY'], VALUE);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('"MY-KEY" is not an environment variable name');
    const unknown = await run(['nope', 'set', 'K'], VALUE);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown agent "nope". Known agents:');
    const noId = await run([]);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('the agent ID is missing');
    const missing = await run(['goose', 'delete', 'NOT_THERE']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('goose has no secret named NOT_THERE. Stored: none.');
    for (const r of [inArgv, twoLines, badName, unknown]) expect(r.stdout).not.toContain(VALUE);
    expect(existsSync(secretsFile())).toBe(false);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('at a terminal, prompts on stderr and does not echo what is typed', async () => {
    // util-linux `script` gives the CLI a real pseudo-terminal as stdin; we type into it.
    const command = [process.execPath, BUILT_CLI, 'agents', 'secrets', 'goose', 'set', 'GOOSE_API_KEY', ...dirs].map((a) => `'${a}'`).join(' ');
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], { env: { ...process.env, ...env }, cwd: tmp.dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const prompted = new Promise<void>((resolvePrompt) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('(not shown): ')) resolvePrompt();
      }),
    );
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await prompted;
    child.stdin.write(`${VALUE}\r`);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, out).toBe(0);
    expect(out).toContain('Value of GOOSE_API_KEY for goose (not shown): ');
    expect(out).toContain('Stored GOOSE_API_KEY for goose');
    expect(out).not.toContain(VALUE);
    expect(stored()).toEqual({ goose: { GOOSE_API_KEY: VALUE } });
  });
});
