/**
 * The settings screen's API through the real core: settings/get and settings/update over a real
 * settings.json (validation per field, unknown keys kept, atomic replace, the change event), and
 * the secret store by names only — the value goes in and never comes out of any answer or file
 * other than the secret store.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../common/api/contract';
import type { SecretsListResult, SettingsUpdateResult, SettingsView } from '../../../common/api/settings-types';
import { makeTempDir } from '../agents/test-support/fake-bin';
import { createCore } from '../core';
import type { CoreApi } from './core-api';

let tmp: ReturnType<typeof makeTempDir>;
let core: CoreApi;
let events: Array<{ name: EventName; payload: unknown }>;
let configDir: string;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir('acpwb-settings-api-');
  configDir = join(tmp.dir, 'config');
  dataDir = join(tmp.dir, 'data');
  core = createCore({ host: 'test', paths: { dataDir, configDir } });
  events = [];
  core.connect((name, payload) => events.push({ name, payload }));
});
afterEach(async () => {
  await core.dispose();
  tmp.cleanup();
});

const file = () => join(configDir, 'settings.json');
const get = () => core.handle('settings/get', undefined) as Promise<SettingsView>;
const update = (p: unknown) => core.handle('settings/update', p) as Promise<SettingsUpdateResult>;
const writeSettings = (value: unknown) => {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(file(), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
};

describe('settings/get and settings/update', () => {
  it('answers the defaults and the file path when there is no file', async () => {
    const view = await get();
    expect(view).toMatchObject({ file: file(), exists: false, problems: [], defaultFolderResolved: null });
    expect(view.values).toEqual({
      defaultAgent: null,
      defaultFolder: null,
      permissionPolicy: 'ask',
      theme: 'system',
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: true } },
      mcpServers: [],
    });
  });

  it('changes only the keys given, keeps keys it does not know, replaces the file atomically and announces the change', async () => {
    const project = join(tmp.dir, 'project');
    mkdirSync(project);
    writeSettings({ '//': 'my notes', myOwnKey: { nested: [1, 2] }, customAgents: [{ id: 'mine', name: 'Mine', command: 'mine-acp' }], theme: 'light' });
    const inodeBefore = statSync(file()).ino;
    const result = await update({ theme: 'dark', permissionPolicy: 'reads', defaultAgent: 'claude', defaultFolder: project });
    expect(result.saved).toBe(true);
    const written = JSON.parse(readFileSync(file(), 'utf8'));
    expect(written).toEqual({
      '//': 'my notes',
      myOwnKey: { nested: [1, 2] },
      customAgents: [{ id: 'mine', name: 'Mine', command: 'mine-acp' }],
      theme: 'dark',
      permissionPolicy: 'reads',
      // The alias is stored as the agent's id, the one the catalog lists.
      defaultAgent: 'claude-acp',
      defaultFolder: project,
      version: 1,
    });
    expect(readFileSync(file(), 'utf8')).toMatch(/^\{\n {2}"\/\/": "my notes",\n/);
    // A new file took the old one's place (temp + rename): no reader ever sees half a file, no temp is left.
    expect(statSync(file()).ino).not.toBe(inodeBefore);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
    expect(events.filter((e) => e.name === 'settings/changed')).toHaveLength(1);
    const view = (events.find((e) => e.name === 'settings/changed')!.payload as { view: SettingsView }).view;
    expect(view.values).toMatchObject({ theme: 'dark', permissionPolicy: 'reads', defaultAgent: 'claude-acp', defaultFolder: project });
    expect(await get()).toEqual(view);
  });

  it('refuses a bad change field by field and leaves the file as it was', async () => {
    writeSettings({ theme: 'light' });
    const before = readFileSync(file(), 'utf8');
    const result = await update({
      theme: 'purple',
      permissionPolicy: 'maybe',
      defaultAgent: 'no-such-agent',
      defaultFolder: 'relative/folder',
      clientCapabilities: { fs: { readTextFile: 'yes' }, camera: true },
      mcpServers: [{ name: 'docs', type: 'http', url: 'ftp://example.com' }],
      customAgents: [],
    });
    expect(result.saved).toBe(false);
    const errors = Object.fromEntries((result as { errors: Array<{ field: string; message: string }> }).errors.map((e) => [e.field, e.message]));
    expect(errors).toEqual({
      theme: 'expected one of system, light, dark, got the string "purple"',
      permissionPolicy: 'expected one of ask, all, reads, none, got the string "maybe"',
      defaultAgent: 'no agent has the id "no-such-agent"; pick one from the catalog',
      defaultFolder: 'must be an absolute folder path (or start with ~/), got "relative/folder"',
      'clientCapabilities.fs.readTextFile': 'expected true or false, got the string "yes"',
      'clientCapabilities.camera': expect.stringContaining('not a client capability'),
      'mcpServers[0].url': expect.stringContaining('an http(s) URL'),
      customAgents: expect.stringContaining('not a setting this screen changes'),
    });
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect(events.some((e) => e.name === 'settings/changed')).toBe(false);

    const missing = await update({ defaultFolder: join(tmp.dir, 'nowhere') });
    expect(missing).toMatchObject({ saved: false, errors: [{ field: 'defaultFolder', message: expect.stringContaining('there is no folder at') }] });
  });

  it('accepts ~/ folders (resolved for the new-session dialog) and removes a key given null', async () => {
    const env = { ...process.env, HOME: tmp.dir };
    mkdirSync(join(tmp.dir, 'work'));
    const { settingsHandlers } = await import('./settings-handlers');
    const handlers = settingsHandlers({ configDir, dataDir }, () => undefined, env);
    const saved = await handlers['settings/update']({ defaultFolder: '~/work', theme: 'dark' });
    expect(saved).toMatchObject({ saved: true, view: { values: { defaultFolder: '~/work' }, defaultFolderResolved: join(tmp.dir, 'work') } });
    await handlers['settings/update']({ defaultFolder: null });
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ version: 1, theme: 'dark' });
  });

  it('changes only the client capabilities named', async () => {
    writeSettings({ clientCapabilities: { fs: { writeTextFile: false }, futureSwitch: 1 } });
    await update({ clientCapabilities: { terminal: false, fs: { readTextFile: false } } });
    expect(JSON.parse(readFileSync(file(), 'utf8')).clientCapabilities).toEqual({ fs: { writeTextFile: false, readTextFile: false }, futureSwitch: 1, terminal: false });
    expect((await get()).values.clientCapabilities).toEqual({ fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: true } });
    await update({ clientCapabilities: { auth: { terminal: false } } });
    expect((await get()).values.clientCapabilities.auth.terminal).toBe(false);
    expect((await get()).values.clientCapabilities.terminal).toBe(false);
  });

  it('adds, disables and removes MCP servers', async () => {
    const servers = [
      { name: 'files', command: 'npx', args: ['-y', 'server-filesystem'], env: [{ name: 'LOG', value: 'info' }], enabled: true },
      { type: 'http' as const, name: 'docs', url: 'https://mcp.example.com', headers: [], enabled: true },
    ];
    expect((await update({ mcpServers: servers })).saved).toBe(true);
    expect((await get()).values.mcpServers).toEqual(servers);
    await update({ mcpServers: [{ ...servers[0]!, enabled: false }, servers[1]] });
    expect((await get()).values.mcpServers.map((s) => [s.name, s.enabled])).toEqual([['files', false], ['docs', true]]);
    const dup = await update({ mcpServers: [servers[0], servers[0]] });
    expect(dup).toMatchObject({ saved: false, errors: [{ field: 'mcpServers[1].name', message: expect.stringContaining('names must be unique') }] });
  });

  it('reports problems of a broken file, refuses to change it, and leaves it untouched', async () => {
    writeSettings('{ "theme": "dark", }');
    const view = await get();
    expect(view.problems).toEqual([{ path: '', severity: 'error', message: expect.stringContaining('not valid JSON at line 1') }]);
    const result = await update({ theme: 'light' });
    expect(result.saved).toBe(false);
    expect((result as { errors: Array<{ message: string }> }).errors[0]!.message).toContain('has errors; fix them');
    expect(readFileSync(file(), 'utf8')).toBe('{ "theme": "dark", }');
  });
});

describe('secrets/list, secrets/set, secrets/delete', () => {
  it('stores values in the secret store only and answers names only', async () => {
    writeSettings({ theme: 'dark' });
    const secret = 'sk-test-VALUE-0123456789';
    const answers: unknown[] = [];
    answers.push(await core.handle('secrets/set', { agentId: 'claude', name: 'ANTHROPIC_API_KEY', value: secret }));
    answers.push(await core.handle('secrets/set', { agentId: 'demo', name: 'DEMO_TOKEN', value: `${secret}-2` }));
    const listed = (await core.handle('secrets/list', {})) as SecretsListResult;
    answers.push(listed, await get(), await core.handle('agents/catalog', undefined));
    expect(listed.agents).toEqual({ 'claude-acp': [{ name: 'ANTHROPIC_API_KEY', state: 'plain' }], demo: [{ name: 'DEMO_TOKEN', state: 'plain' }] });
    expect(listed.protection).toMatchObject({ encrypted: false, method: 'none', summary: expect.stringContaining('Not encrypted: no keychain') });
    expect(await core.handle('secrets/list', { agentId: 'gemini' })).toMatchObject({ agents: { gemini: [] } });
    expect(((await core.handle('secrets/list', { agentId: 'claude' })) as SecretsListResult).agents).toEqual({ 'claude-acp': [{ name: 'ANTHROPIC_API_KEY', state: 'plain' }] });

    for (const answer of [...answers, ...events.map((e) => e.payload)]) expect(JSON.stringify(answer)).not.toContain(secret);
    expect(events.filter((e) => e.name === 'secrets/changed')).toHaveLength(2);
    expect(readFileSync(file(), 'utf8')).not.toContain(secret);
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toContain(secret);
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

    const after = (await core.handle('secrets/delete', { agentId: 'claude-acp', name: 'ANTHROPIC_API_KEY' })) as SecretsListResult;
    expect(after.agents).toEqual({ 'claude-acp': [] });
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toContain(`"${secret}"`);
  });

  it('refuses bad names, empty values and unknown agents with a clear message', async () => {
    await expect(core.handle('secrets/set', { agentId: 'demo', name: 'BAD NAME', value: 'x' })).rejects.toMatchObject({ code: 'bad_params', message: expect.stringContaining('"BAD NAME" is not an environment variable name') });
    await expect(core.handle('secrets/set', { agentId: 'demo', name: 'OK', value: '' })).rejects.toMatchObject({ message: 'the value of OK is empty' });
    await expect(core.handle('secrets/set', { agentId: 'nobody', name: 'OK', value: 'v' })).rejects.toMatchObject({ message: 'no agent has the id "nobody"' });
    await expect(core.handle('secrets/delete', { agentId: 'demo', name: 'NONE' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
