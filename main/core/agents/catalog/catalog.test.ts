import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { defaultSettings, type WorkbenchSettings } from '../settings-schema';
import type { AgentDefinition } from '../types';
import { BUILTIN_AGENTS, reservedAgentIds } from './builtins';
import { buildCatalog, clientCapabilitiesFor, findAgent, getAgent, UnknownAgentError } from './catalog';
import { defaultDistDir, demoAgentPaths } from './demo';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');

function byId(id: string): AgentDefinition {
  const agent = BUILTIN_AGENTS.find((a) => a.id === id);
  if (!agent) throw new Error(`no builtin ${id}`);
  return agent;
}

function settingsWith(patch: Partial<WorkbenchSettings>): WorkbenchSettings {
  return { ...defaultSettings(), ...patch };
}

describe('built-in agents', () => {
  it('have unique, valid ids and aliases, a description, a way to launch and a way to install', () => {
    const seen = new Set<string>();
    for (const agent of BUILTIN_AGENTS) {
      for (const id of [agent.id, ...agent.aliases]) {
        expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
      expect(agent.description.length).toBeGreaterThan(5);
      expect(agent.launch[0]?.kind, agent.id).toBe('path');
      expect(agent.install.text.length).toBeGreaterThan(5);
      for (const c of agent.launch) if (c.kind === 'npx') expect(c.package).toMatch(/.@\d+\.\d+\.\d+$/);
    }
    expect(reservedAgentIds()).toEqual(new Set([...seen, 'demo']));
  });

  it('launch the well-known agents the way their docs say, installed binary first, pinned npx second', () => {
    expect(byId('claude-acp').launch).toEqual([
      { kind: 'path', command: 'claude-agent-acp', args: [] },
      { kind: 'npx', package: '@agentclientprotocol/claude-agent-acp@0.101.0', args: [] },
    ]);
    expect(byId('codex-acp').launch[1]).toEqual({ kind: 'npx', package: '@agentclientprotocol/codex-acp@2.6.0', args: [] });
    expect(byId('gemini').launch[0]).toEqual({ kind: 'path', command: 'gemini', args: ['--acp'] });
    expect(byId('opencode').launch[0]).toEqual({ kind: 'path', command: 'opencode', args: ['acp'] });
    expect(byId('goose').launch).toEqual([{ kind: 'path', command: 'goose', args: ['acp'] }]);
    expect(byId('goose').install.url).toMatch(/^https:/);
    expect(byId('github-copilot-cli').launch[0]).toEqual({ kind: 'path', command: 'copilot', args: ['--acp'] });
    expect(byId('claude-acp').install.npmPackage).toBe('@agentclientprotocol/claude-agent-acp');
  });

  it('carry the quirks and env real agents need', () => {
    const sandbox = byId('claude-acp').quirks.find((q) => q.id === 'is-sandbox-as-root');
    expect(sandbox).toMatchObject({ env: { IS_SANDBOX: '1' }, when: 'root' });
    expect(byId('claude-acp').envVars).toEqual([expect.objectContaining({ name: 'ANTHROPIC_API_KEY', secret: true })]);
    expect(byId('gemini').envVars.map((e) => e.name)).toEqual(['GEMINI_API_KEY']);
    expect(byId('auggie').env).toEqual({ AUGMENT_DISABLE_AUTO_UPDATE: '1' });
  });
});

describe('the demo agent', () => {
  it('finds dist/ next to the bundle, or next to package.json from sources', () => {
    expect(defaultDistDir('/opt/app/dist/cli')).toBe('/opt/app/dist');
    expect(defaultDistDir('/opt/app/dist/main')).toBe('/opt/app/dist');
    expect(defaultDistDir(__dirname)).toBe(join(repoRoot, 'dist'));
  });

  it('runs the fixture agent with the demo scenario', () => {
    expect(demoAgentPaths('/d')).toEqual({ script: '/d/fixtures/fixture-agent.cjs', scenario: '/d/fixtures/scenarios/demo.json' });
    const demo = getAgent(buildCatalog(defaultSettings(), { distDir: '/d' }), 'demo');
    expect(demo.source).toBe('demo');
    expect(demo.launch).toEqual([{ kind: 'node-script', script: '/d/fixtures/fixture-agent.cjs', args: ['--scenario', '/d/fixtures/scenarios/demo.json'] }]);
  });
});

describe('buildCatalog', () => {
  it('lists built-ins, registry imports, custom agents and the demo, in that order', () => {
    const catalog = buildCatalog(
      settingsWith({
        customAgents: [{ id: 'mine', name: 'Mine', command: '/opt/mine', args: ['--acp'], env: { A: '1' }, cwd: { folder: '/srv' } }],
        registryAgents: [
          { id: 'other', name: 'Other', version: '1.0.0', description: 'd', distribution: { npx: { package: 'other@1.0.0' } }, source: 'f', importedAt: 't' },
        ],
      }),
      { distDir: '/d', platform: 'linux-x86_64' },
    );
    const ids = catalog.map((a) => a.id);
    expect(ids.slice(0, BUILTIN_AGENTS.length)).toEqual(BUILTIN_AGENTS.map((a) => a.id));
    expect(ids.slice(BUILTIN_AGENTS.length)).toEqual(['other', 'mine', 'demo']);
    expect(getAgent(catalog, 'mine')).toMatchObject({
      source: 'custom',
      launch: [{ kind: 'path', command: '/opt/mine', args: ['--acp'] }],
      env: { A: '1' },
      cwd: { folder: '/srv' },
    });
    expect(getAgent(catalog, 'other')).toMatchObject({ source: 'registry', version: '1.0.0', launch: [{ kind: 'npx', package: 'other@1.0.0', args: [] }] });
  });

  it('lets a registry import of a built-in pin its version and keep its quirks', () => {
    const catalog = buildCatalog(
      settingsWith({
        registryAgents: [
          { id: 'gemini', name: 'Gemini', version: '0.62.0', description: 'd', distribution: { npx: { package: '@google/gemini-cli@0.62.0', args: ['--acp'] } }, source: 'f', importedAt: 't' },
        ],
      }),
    );
    expect(catalog.filter((a) => a.id === 'gemini')).toHaveLength(1);
    const gemini = getAgent(catalog, 'gemini');
    expect(gemini).toMatchObject({ source: 'registry', version: '0.62.0', name: 'Gemini CLI' });
    expect(gemini.launch).toEqual([
      { kind: 'path', command: 'gemini', args: ['--acp'] },
      { kind: 'npx', package: '@google/gemini-cli@0.62.0', args: ['--acp'] },
    ]);
    expect(gemini.quirks.length).toBeGreaterThan(0);
    expect(gemini.envVars.map((e) => e.name)).toEqual(['GEMINI_API_KEY']);
  });

  it('applies overrides: extra args on every launch, env, disabled, capability switches', () => {
    const settings = settingsWith({
      agentOverrides: { gemini: { args: ['--experimental-acp'], env: { X: '1' }, disabled: true, clientCapabilities: { fs: { readTextFile: false } } } },
    });
    const gemini = getAgent(buildCatalog(settings), 'gemini');
    expect(gemini.launch.map((c) => c.args)).toEqual([['--acp', '--experimental-acp'], ['--acp', '--experimental-acp']]);
    expect(gemini.env).toEqual({ X: '1' });
    expect(gemini.disabled).toBe(true);
    expect(clientCapabilitiesFor(gemini, settings)).toEqual({ fs: { readTextFile: false, writeTextFile: true }, terminal: true, auth: { terminal: true } });
    expect(clientCapabilitiesFor(getAgent(buildCatalog(settings), 'goose'), settings).fs.readTextFile).toBe(true);
  });

  it('finds agents by alias and names every known id for an unknown one', () => {
    const catalog = buildCatalog(defaultSettings());
    expect(findAgent(catalog, 'claude')?.id).toBe('claude-acp');
    expect(findAgent(catalog, 'copilot')?.id).toBe('github-copilot-cli');
    expect(() => getAgent(catalog, 'nope')).toThrow(UnknownAgentError);
    expect(() => getAgent(catalog, 'nope')).toThrow(/unknown agent "nope"\. Known agents: claude-acp, codex-acp, gemini, .*demo$/);
  });
});

describe('per-agent capability defaults', () => {
  it('withholds fs.readTextFile from gemini by default (it cannot create files after a read error), and the user can turn it back on', () => {
    const settings = defaultSettings();
    const gemini = getAgent(buildCatalog(settings), 'gemini');
    expect(clientCapabilitiesFor(gemini, settings).fs).toEqual({ readTextFile: false, writeTextFile: true });
    const withOverride: WorkbenchSettings = { ...settings, agentOverrides: { gemini: { clientCapabilities: { fs: { readTextFile: true } } } } };
    const again = getAgent(buildCatalog(withOverride), 'gemini');
    expect(clientCapabilitiesFor(again, withOverride).fs).toEqual({ readTextFile: true, writeTextFile: true });
    const claude = getAgent(buildCatalog(settings), 'claude');
    expect(clientCapabilitiesFor(claude, settings).fs.readTextFile).toBe(true);
  });
});
