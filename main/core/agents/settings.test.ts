import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  addCustomAgent,
  duplicateCustomAgent,
  editCustomAgent,
  formatSettingsProblem,
  loadSettings,
  removeCustomAgent,
  setAgentOverride,
  setSettingsValues,
  SettingsError,
  settingsFilePath,
  slugFromName,
} from './settings';
import { makeTempDir } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let configDir: string;
let file: string;

beforeEach(() => {
  tmp = makeTempDir();
  configDir = join(tmp.dir, 'config');
  file = settingsFilePath(configDir);
});
afterEach(() => tmp.cleanup());

function writeSettings(value: unknown): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

describe('loading settings.json', () => {
  it('uses the defaults when there is no file', async () => {
    const loaded = await loadSettings(configDir);
    expect(loaded.exists).toBe(false);
    expect(loaded.problems).toEqual([]);
    expect(loaded.settings).toMatchObject({
      permissionPolicy: 'ask',
      theme: 'system',
      customAgents: [],
      mcpServers: [],
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: true } },
    });
  });

  it('reads every documented key', async () => {
    writeSettings({
      version: 1,
      defaultAgent: 'my-agent',
      permissionPolicy: 'reads',
      theme: 'dark',
      clientCapabilities: { fs: { writeTextFile: false }, terminal: false },
      customAgents: [
        { id: 'my-agent', name: 'My agent', command: '/opt/my-agent', args: ['--acp'], env: { LOG: 'debug' }, cwd: { folder: '/srv/work' } },
      ],
      agentOverrides: { gemini: { args: ['--experimental-acp'], env: { X: '1' }, disabled: true, clientCapabilities: { fs: { readTextFile: false } } } },
      mcpServers: [
        { name: 'files', command: '/usr/bin/mcp-files', args: [], env: [{ name: 'ROOT', value: '/tmp' }] },
        { type: 'http', name: 'web', url: 'https://mcp.example.invalid', headers: [{ name: 'X-Team', value: 'qa' }], enabled: false },
      ],
    });
    const loaded = await loadSettings(configDir);
    expect(loaded.problems).toEqual([]);
    const s = loaded.settings;
    expect(s.defaultAgent).toBe('my-agent');
    expect(s.permissionPolicy).toBe('reads');
    expect(s.theme).toBe('dark');
    expect(s.clientCapabilities).toEqual({ fs: { readTextFile: true, writeTextFile: false }, terminal: false, auth: { terminal: true } });
    expect(s.customAgents).toEqual([
      { id: 'my-agent', name: 'My agent', command: '/opt/my-agent', args: ['--acp'], env: { LOG: 'debug' }, cwd: { folder: '/srv/work' } },
    ]);
    expect(s.agentOverrides.gemini).toEqual({ args: ['--experimental-acp'], env: { X: '1' }, disabled: true, clientCapabilities: { fs: { readTextFile: false } } });
    expect(s.mcpServers).toEqual([
      { name: 'files', command: '/usr/bin/mcp-files', args: [], env: [{ name: 'ROOT', value: '/tmp' }], enabled: true },
      { type: 'http', name: 'web', url: 'https://mcp.example.invalid', headers: [{ name: 'X-Team', value: 'qa' }], enabled: false },
    ]);
  });

  it('leaves a file that is not JSON untouched, uses the defaults and says where it broke', async () => {
    const text = '{\n  "theme": "dark",\n  "customAgents": [\n}\n';
    writeSettings(text);
    const loaded = await loadSettings(configDir);
    expect(loaded.broken).toBe(true);
    expect(loaded.settings.theme).toBe('system');
    expect(loaded.problems).toHaveLength(1);
    const line = formatSettingsProblem(loaded.problems[0]!);
    expect(line).toContain(file);
    expect(line).toContain('not valid JSON');
    expect(line).toContain('not valid JSON at line 4, column 1: unexpected "}" where a value was expected');

    await expect(addCustomAgent(configDir, { name: 'x', command: 'x' })).rejects.toBeInstanceOf(SettingsError);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('rejects a top-level value that is not an object', async () => {
    writeSettings('[1, 2]');
    const loaded = await loadSettings(configDir);
    expect(loaded.broken).toBe(true);
    expect(loaded.problems[0]!.message).toContain('expected a JSON object');
  });

  it('reports bad values with their JSON path and keeps the good ones', async () => {
    writeSettings({
      theme: 'purple',
      permissionPolicy: 'all',
      customAgents: [
        { id: 'good', name: 'Good', command: 'good-agent' },
        { id: 'bad', name: 'Bad', command: 3 },
        { id: 'gemini', name: 'Shadow', command: 'x' },
        { id: 'rel', name: 'Relative', command: 'x', cwd: { folder: 'relative/dir' } },
      ],
      mcpServers: [{ type: 'http', name: 'h', url: 'ftp://nope' }],
      clientCapabilities: { terminal: 'yes' },
    });
    const loaded = await loadSettings(configDir);
    const lines = loaded.problems.map(formatSettingsProblem);
    expect(lines).toContain(`${file}: theme: expected one of "system", "light", "dark", got the string "purple"`);
    expect(lines).toContain(`${file}: customAgents[1].command: expected a string, got number 3`);
    expect(lines.some((l) => l.startsWith(`${file}: customAgents[2].id: "gemini" is already used`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${file}: customAgents[3].cwd.folder: must be an absolute folder path`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${file}: mcpServers[0].url:`))).toBe(true);
    expect(lines).toContain(`${file}: clientCapabilities.terminal: expected true or false, got the string "yes"`);
    expect(loaded.settings.theme).toBe('system');
    expect(loaded.settings.permissionPolicy).toBe('all');
    expect(loaded.settings.customAgents.map((a) => a.id)).toEqual(['good']);
    expect(loaded.settings.clientCapabilities.terminal).toBe(true);
  });

  it('accepts the example in docs/settings.md without a single problem', async () => {
    const doc = readFileSync(resolve(__dirname, '..', '..', '..', 'docs', 'settings.md'), 'utf8');
    const example = /## Example\n\n```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    writeSettings(example!);
    const loaded = await loadSettings(configDir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.settings.customAgents.map((a) => a.id)).toEqual(['my-agent', 'claude-old']);
    expect(loaded.settings.mcpServers.map((m) => m.name)).toEqual(['filesystem', 'team-docs']);
  });

  it('warns about unknown keys without treating them as errors', async () => {
    writeSettings({ themee: 'dark', customAgents: [{ id: 'a', name: 'A', command: 'a', colour: 'red' }] });
    const loaded = await loadSettings(configDir);
    expect(loaded.problems.every((p) => p.severity === 'warning')).toBe(true);
    expect(loaded.problems.map((p) => p.path)).toEqual(['themee', 'customAgents[0].colour']);
    expect(loaded.settings.customAgents).toHaveLength(1);
  });
});

describe('changing settings.json', () => {
  it('adds a custom agent with an id slugged from its name, keeping unknown keys and writing atomically', async () => {
    writeSettings({ theme: 'light', 'x-my-notes': { keep: ['me'] } });
    const agent = await addCustomAgent(configDir, { name: 'My Fancy Agent!', command: 'fancy', args: ['--acp'] });
    expect(agent).toEqual({ id: 'my-fancy-agent', name: 'My Fancy Agent!', command: 'fancy', args: ['--acp'], env: {}, cwd: 'session' });
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    expect(raw['x-my-notes']).toEqual({ keep: ['me'] });
    expect(raw.theme).toBe('light');
    expect(raw.customAgents).toEqual([agent]);
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it('creates the file and folder when there is none', async () => {
    await addCustomAgent(configDir, { name: 'First', command: 'first' });
    const loaded = await loadSettings(configDir);
    expect(loaded.exists).toBe(true);
    expect(loaded.settings.customAgents.map((a) => a.id)).toEqual(['first']);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });

  it('keeps ids unique, also against built-in ids and aliases', async () => {
    expect((await addCustomAgent(configDir, { name: 'Gemini', command: 'g' })).id).toBe('gemini-2');
    expect((await addCustomAgent(configDir, { name: 'Claude', command: 'c' })).id).toBe('claude-2');
    expect((await addCustomAgent(configDir, { name: 'Gemini', command: 'g' })).id).toBe('gemini-3');
    await expect(addCustomAgent(configDir, { id: 'gemini-2', name: 'x', command: 'x' })).rejects.toThrow('already used');
    await expect(addCustomAgent(configDir, { id: 'Bad Id', name: 'x', command: 'x' })).rejects.toThrow('not a valid agent id');
  });

  it('slugs names into valid ids', () => {
    expect(slugFromName('Çlaude  Dev 2')).toBe('claude-dev-2');
    expect(slugFromName('42 agents')).toBe('agent-42-agents');
    expect(slugFromName('!!!')).toBe('agent');
  });

  it('edits a custom agent in place, keeping its id and the keys it does not know', async () => {
    writeSettings({ customAgents: [{ id: 'a', name: 'A', command: 'a', 'x-note': 'mine' }] });
    const edited = await editCustomAgent(configDir, 'a', { name: 'A prime', args: ['--fast'], cwd: { folder: '/srv' } });
    expect(edited).toEqual({ id: 'a', name: 'A prime', command: 'a', args: ['--fast'], env: {}, cwd: { folder: '/srv' } });
    expect(JSON.parse(readFileSync(file, 'utf8')).customAgents[0]['x-note']).toBe('mine');
    await expect(editCustomAgent(configDir, 'nope', { name: 'x' })).rejects.toThrow('no custom agent has the id "nope"');
  });

  it('refuses an edit that would make the file invalid', async () => {
    await addCustomAgent(configDir, { name: 'A', command: 'a' });
    const before = readFileSync(file, 'utf8');
    await expect(editCustomAgent(configDir, 'a', { command: '' })).rejects.toThrow('customAgents[0].command: must not be empty');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('duplicates and removes custom agents, cleaning up the override and default', async () => {
    await addCustomAgent(configDir, { name: 'Base', command: 'base', env: { A: '1' } });
    const copy = await duplicateCustomAgent(configDir, 'base');
    expect(copy).toMatchObject({ id: 'base-copy', name: 'Base (copy)', command: 'base', env: { A: '1' } });
    await setAgentOverride(configDir, 'base', { disabled: true });
    await setSettingsValues(configDir, { defaultAgent: 'base' });
    expect(await removeCustomAgent(configDir, 'base')).toBe(true);
    expect(await removeCustomAgent(configDir, 'base')).toBe(false);
    expect(await removeCustomAgent(configDir, 'gemini')).toBe(false);
    const loaded = await loadSettings(configDir);
    expect(loaded.settings.customAgents.map((a) => a.id)).toEqual(['base-copy']);
    expect(loaded.settings.agentOverrides).toEqual({});
    expect(loaded.settings.defaultAgent).toBeUndefined();
    expect(loaded.problems).toEqual([]);
  });

  it('sets top-level values and removes them with undefined', async () => {
    await setSettingsValues(configDir, { theme: 'dark', permissionPolicy: 'none' });
    expect((await loadSettings(configDir)).settings).toMatchObject({ theme: 'dark', permissionPolicy: 'none' });
    await setSettingsValues(configDir, { theme: undefined });
    expect((await loadSettings(configDir)).settings.theme).toBe('system');
  });
});
