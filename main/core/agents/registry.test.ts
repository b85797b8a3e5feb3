import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, getAgent } from './catalog/catalog';
import { currentRegistryPlatform, selectDistribution } from './catalog/registry-entry';
import { importRegistry, parseRegistryDocument, registryCatalogEntries, RegistryError } from './registry';
import { addCustomAgent, loadSettings, settingsFilePath } from './settings';
import { makeTempDir } from './test-support/fake-bin';

const fixtures = join(__dirname, 'fixtures');
const v1File = join(fixtures, 'registry-v1.json');
const v2File = join(fixtures, 'registry-v2.json');
const v1Text = readFileSync(v1File, 'utf8');

let tmp: ReturnType<typeof makeTempDir>;
let configDir: string;
beforeEach(() => {
  tmp = makeTempDir();
  configDir = join(tmp.dir, 'config');
});
afterEach(() => tmp.cleanup());

describe('parsing a registry document', () => {
  it('keeps valid manifests and reports the invalid ones by JSON path', () => {
    const parsed = parseRegistryDocument(v1Text, v1File);
    expect(parsed.registryVersion).toBe('1.0.0');
    expect(parsed.agents.map((a) => a.id)).toEqual(['example-npx', 'example-uvx', 'example-binary', 'example-mac-only', 'gemini']);
    expect(parsed.problems).toEqual([
      expect.objectContaining({ path: 'agents[5].id', message: expect.stringContaining('"Not_Valid" is not a valid agent id') }),
      expect.objectContaining({ path: 'agents[6].distribution', message: 'is required' }),
    ]);
    const binary = parsed.agents.find((a) => a.id === 'example-binary')!;
    expect(binary.distribution.binary?.['linux-x86_64']?.sha256).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
  });

  it('rejects documents that are not a registry', () => {
    expect(() => parseRegistryDocument('{nope', 'x.json')).toThrow(/x\.json is not valid JSON/);
    expect(() => parseRegistryDocument(readFileSync(join(fixtures, 'registry-not-a-registry.json'), 'utf8'), 'y.json')).toThrow(
      'y.json is not an ACP registry document: agents: expected an array of agent manifests, got the string "not a list"',
    );
  });

  it('reports bad binary entries precisely', () => {
    const doc = {
      version: '1',
      agents: [
        {
          id: 'b',
          name: 'B',
          version: '1.0.0',
          description: '',
          distribution: { binary: { 'plan9-mips': { archive: 'x', cmd: 'b' }, 'linux-x86_64': { archive: 'not a url', cmd: '', sha256: 'xyz' } } },
        },
      ],
    };
    const parsed = parseRegistryDocument(JSON.stringify(doc), 'd');
    expect(parsed.agents).toEqual([]);
    expect(parsed.problems.map((p) => p.path)).toEqual([
      'agents[0].distribution.binary["plan9-mips"]',
      'agents[0].distribution.binary["linux-x86_64"].archive',
      'agents[0].distribution.binary["linux-x86_64"].cmd',
      'agents[0].distribution.binary["linux-x86_64"].sha256',
    ]);
  });
});

describe('choosing a distribution for this platform', () => {
  it('names platforms the registry way', () => {
    expect(currentRegistryPlatform('linux', 'x64')).toBe('linux-x86_64');
    expect(currentRegistryPlatform('darwin', 'arm64')).toBe('darwin-aarch64');
    expect(currentRegistryPlatform('win32', 'arm64')).toBe('windows-aarch64');
    expect(currentRegistryPlatform('freebsd', 'x64')).toBeUndefined();
    expect(currentRegistryPlatform('linux', 'ia32')).toBeUndefined();
  });

  it('turns each kind into a catalog entry, and lists agents with no build here as unsupported', () => {
    const { agents } = parseRegistryDocument(v1Text, v1File);
    const linux = registryCatalogEntries(agents, 'linux-x86_64');
    const byId = Object.fromEntries(linux.supported.map((a) => [a.id, a]));
    expect(byId['example-npx']).toMatchObject({
      source: 'registry',
      version: '1.2.3',
      launch: [{ kind: 'npx', package: '@example/agent@1.2.3', args: ['--acp'] }],
      env: { EXAMPLE_NO_UPDATE: '1' },
      install: { npmPackage: '@example/agent' },
    });
    expect(byId['example-uvx']!.launch).toEqual([{ kind: 'uvx', package: 'example-agent==0.4.0', args: ['acp'] }]);
    expect(byId['example-binary']!.launch).toEqual([
      { kind: 'path', command: 'example', args: ['acp'] },
      {
        kind: 'download',
        platform: 'linux-x86_64',
        archive: 'https://example.invalid/dl/example-2.0.0-linux-x64.tar.gz',
        cmd: './example',
        args: ['acp'],
        sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      },
    ]);
    expect(byId['example-binary']!.env).toEqual({ EXAMPLE_ACP: '1' });
    expect(byId['example-binary']!.install.text).toContain('Needs download');
    expect(linux.unsupported).toEqual([
      { id: 'example-mac-only', name: 'Example macOS-only agent', reason: 'no build for linux-x86_64 (binaries exist for: darwin-aarch64)' },
    ]);

    const mac = registryCatalogEntries(agents, 'darwin-aarch64');
    expect(mac.unsupported).toEqual([]);
    expect(mac.supported.find((a) => a.id === 'example-binary')!.launch[1]).toMatchObject({ platform: 'darwin-aarch64', archive: expect.stringContaining('darwin-arm64') });
    const windowsArm = registryCatalogEntries(agents, 'windows-aarch64');
    expect(windowsArm.unsupported.map((u) => u.id)).toEqual(['example-binary', 'example-mac-only']);
  });

  it('prefers a package runner over a download', () => {
    const both = { npx: { package: 'k@1.0.0' }, binary: { 'linux-x86_64': { archive: 'https://x.invalid/k.tgz', cmd: 'k' } } };
    expect(selectDistribution(both, 'linux-x86_64').kind).toBe('npx');
  });
});

describe('importing into settings', () => {
  it('stores supported agents with their version, and a re-import updates them', async () => {
    const first = await importRegistry(configDir, v1File, { platform: 'linux-x86_64', now: () => new Date('2026-01-02T03:04:05Z') });
    expect(first).toMatchObject({
      registryVersion: '1.0.0',
      added: ['example-npx', 'example-uvx', 'example-binary', 'gemini'],
      unsupported: [expect.objectContaining({ id: 'example-mac-only' })],
      updated: [],
    });
    expect(first.problems).toHaveLength(2);
    let loaded = await loadSettings(configDir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.settings.registryAgents.find((r) => r.id === 'example-npx')).toMatchObject({
      version: '1.2.3',
      source: v1File,
      importedAt: '2026-01-02T03:04:05.000Z',
    });
    // A registry entry for a built-in updates it instead of adding a twin.
    const catalog = buildCatalog(loaded.settings, { platform: 'linux-x86_64' });
    expect(catalog.filter((a) => a.id === 'gemini')).toHaveLength(1);
    expect(getAgent(catalog, 'gemini').version).toBe('0.62.0');

    const second = await importRegistry(configDir, v2File, { platform: 'linux-x86_64' });
    expect(second.added).toEqual(['example-new']);
    expect(second.updated).toEqual([
      { id: 'example-npx', from: '1.2.3', to: '1.3.0' },
      { id: 'example-binary', from: '2.0.0', to: '2.0.0' },
    ]);
    expect(second.unchanged).toEqual(['example-uvx', 'gemini']);
    loaded = await loadSettings(configDir);
    expect(loaded.settings.registryAgents.map((r) => r.id)).toEqual(['example-npx', 'example-uvx', 'example-binary', 'gemini', 'example-new']);
    expect(getAgent(buildCatalog(loaded.settings, { platform: 'linux-x86_64' }), 'example-npx').launch[0]).toMatchObject({ package: '@example/agent@1.3.0' });
  });

  it('does not let an import take a custom agent id', async () => {
    await addCustomAgent(configDir, { id: 'example-uvx', name: 'Mine', command: 'mine' });
    const result = await importRegistry(configDir, v1File, { platform: 'linux-x86_64' });
    expect(result.skipped).toEqual([{ id: 'example-uvx', reason: 'the id "example-uvx" is taken by a custom agent' }]);
    const loaded = await loadSettings(configDir);
    expect(loaded.settings.customAgents.map((a) => a.id)).toEqual(['example-uvx']);
    expect(loaded.settings.registryAgents.map((a) => a.id)).not.toContain('example-uvx');
  });

  it('leaves a broken settings file alone', async () => {
    const file = settingsFilePath(configDir);
    await addCustomAgent(configDir, { name: 'x', command: 'x' });
    writeFileSync(file, '{ broken');
    await expect(importRegistry(configDir, v1File)).rejects.toThrow('has errors');
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('says when the file is missing', async () => {
    await expect(importRegistry(configDir, join(tmp.dir, 'nope.json'))).rejects.toThrow(`no such file: ${join(tmp.dir, 'nope.json')}`);
  });
});

describe('importing from a URL', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/registry.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(v1Text);
      } else if (req.url === '/slow') {
        // Never answers: the import must give up on its own.
      } else {
        res.writeHead(404, 'Not Found');
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('downloads and imports the document', async () => {
    const result = await importRegistry(configDir, `${base}/registry.json`, { platform: 'linux-x86_64' });
    expect(result.source).toBe(`${base}/registry.json`);
    expect(result.added).toHaveLength(4);
    expect((await loadSettings(configDir)).settings.registryAgents[0]!.source).toBe(`${base}/registry.json`);
  });

  it('reports HTTP errors', async () => {
    await expect(importRegistry(configDir, `${base}/missing.json`)).rejects.toThrow(`could not download the registry from ${base}/missing.json: HTTP 404 Not Found`);
  });

  it('gives up after the timeout with a message that mentions being offline', async () => {
    const started = Date.now();
    const err = await importRegistry(configDir, `${base}/slow`, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as Error).message).toMatch(/no answer within 300 ms — you may be offline/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails gracefully when nothing listens (offline)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await importRegistry(configDir, `http://127.0.0.1:${port}/registry.json`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as Error).message).toContain(`could not download the registry from http://127.0.0.1:${port}/registry.json (ECONNREFUSED) — you may be offline`);
    expect((err as Error).message).toContain('agents import-registry FILE');
    expect((await loadSettings(configDir)).exists).toBe(false);
  });
});
