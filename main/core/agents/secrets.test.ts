import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addCustomAgent, settingsFilePath } from './settings';
import { REDACTED, SecretStore, type Encryptor } from './secrets';
import { makeTempDir } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let dataDir: string;
beforeEach(() => {
  tmp = makeTempDir();
  dataDir = join(tmp.dir, 'data');
});
afterEach(() => tmp.cleanup());

/** A reversible stand-in for Electron's safeStorage; `available` switches like a keychain coming and going. */
function rot13(available = true): Encryptor & { available: boolean } {
  const rot = (t: string) => t.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c === c.toLowerCase() ? 97 : 65)));
  return {
    id: 'test-rot13',
    available,
    isAvailable() {
      return this.available;
    },
    encrypt: (s) => Buffer.from(rot(s)).toString('base64'),
    decrypt: (s) => rot(Buffer.from(s, 'base64').toString()),
  };
}

describe('SecretStore', () => {
  it('stores values per agent and name in a 0600 file, and reads them back in a new store', async () => {
    const store = await SecretStore.open(dataDir);
    await store.set('claude-acp', 'ANTHROPIC_API_KEY', 'sk-ant-123456');
    await store.set('gemini', 'GEMINI_API_KEY', 'AIza-987654');
    expect(store.get('claude-acp', 'ANTHROPIC_API_KEY')).toBe('sk-ant-123456');
    const file = join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 2,
      agents: { 'claude-acp': { ANTHROPIC_API_KEY: 'sk-ant-123456' }, gemini: { GEMINI_API_KEY: 'AIza-987654' } },
    });
    const again = SecretStore.openSync(dataDir);
    expect(again.envFor('gemini')).toEqual({ GEMINI_API_KEY: 'AIza-987654' });
    expect(again.names('claude-acp')).toEqual(['ANTHROPIC_API_KEY']);
  });

  it('deletes one value or all of an agent', async () => {
    const store = await SecretStore.open(dataDir);
    await store.set('a', 'ONE', '1111');
    await store.set('a', 'TWO', '2222');
    expect(await store.delete('a', 'ONE')).toBe(true);
    expect(await store.delete('a', 'ONE')).toBe(false);
    expect(store.names('a')).toEqual(['TWO']);
    expect(await store.delete('a')).toBe(true);
    expect(store.names('a')).toEqual([]);
    expect(await store.delete('nobody')).toBe(false);
  });

  it('merges with what another process wrote meanwhile', async () => {
    const app = await SecretStore.open(dataDir);
    const cli = await SecretStore.open(dataDir);
    await app.set('a', 'X', 'xxxx');
    await cli.set('b', 'Y', 'yyyy');
    expect((await SecretStore.open(dataDir)).envFor('a')).toEqual({ X: 'xxxx' });
    expect((await SecretStore.open(dataDir)).envFor('b')).toEqual({ Y: 'yyyy' });
  });

  it('encrypts with a pluggable encryptor, marks each encrypted value, and lists values another host cannot decrypt', async () => {
    const store = await SecretStore.open(dataDir, rot13());
    expect(store.protection()).toMatchObject({ encrypted: true, method: 'test-rot13' });
    await store.set('a', 'KEY', 'hello-world');
    const raw = readFileSync(join(dataDir, 'secrets.json'), 'utf8');
    expect(raw).not.toContain('hello-world');
    expect(JSON.parse(raw).agents.a.KEY).toEqual({ encrypted: 'test-rot13', data: expect.any(String) });
    expect((await SecretStore.open(dataDir, rot13())).get('a', 'KEY')).toBe('hello-world');
    // The CLI (no keychain) sees the name, cannot use the value, and says so.
    const plain = await SecretStore.open(dataDir);
    expect(plain.protection()).toMatchObject({ encrypted: false, method: 'none' });
    expect(plain.list('a')).toEqual([{ name: 'KEY', state: 'unreadable', note: expect.stringContaining('encrypted by "test-rot13"') }]);
    expect(() => plain.get('a', 'KEY')).toThrow('cannot decrypt');
    expect(plain.envFor('a')).toEqual({});
    expect(plain.redact('hello-world')).toBe('hello-world');
    // Setting it again there replaces it with a plain value the CLI can use.
    await plain.set('a', 'KEY', 'cli-value');
    expect((await SecretStore.open(dataDir)).envFor('a')).toEqual({ KEY: 'cli-value' });
  });

  it('migrates plain values to encrypted on the first write once encryption is available', async () => {
    const before = await SecretStore.open(dataDir);
    await before.set('a', 'OLD', 'old-plain-value');
    await before.set('b', 'OTHER', 'other-plain-value');
    const enc = rot13();
    const store = await SecretStore.open(dataDir, enc);
    expect(store.list('a')).toEqual([{ name: 'OLD', state: 'plain' }]);
    expect(store.get('a', 'OLD')).toBe('old-plain-value');
    await store.set('c', 'NEW', 'new-value');
    const raw = readFileSync(join(dataDir, 'secrets.json'), 'utf8');
    for (const v of ['old-plain-value', 'other-plain-value', 'new-value']) expect(raw).not.toContain(v);
    const again = await SecretStore.open(dataDir, enc);
    expect(again.list('a')).toEqual([{ name: 'OLD', state: 'encrypted' }]);
    expect({ ...again.envFor('a'), ...again.envFor('b'), ...again.envFor('c') }).toEqual({ OLD: 'old-plain-value', OTHER: 'other-plain-value', NEW: 'new-value' });
  });

  it('stores plain (0600) while the encryptor is unavailable, and reads version-1 files', async () => {
    const enc = rot13(false);
    const store = await SecretStore.open(dataDir, enc);
    expect(store.protection().encrypted).toBe(false);
    await store.set('a', 'KEY', 'stored-plain');
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).agents.a.KEY).toBe('stored-plain');
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, encryption: 'none', agents: { a: { K: 'v1-plain' } } }));
    expect((await SecretStore.open(dataDir)).envFor('a')).toEqual({ K: 'v1-plain' });
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, encryption: 'test-rot13', agents: { a: { K: rot13().encrypt('v1-enc') } } }));
    expect((await SecretStore.open(dataDir, rot13())).envFor('a')).toEqual({ K: 'v1-enc' });
  });

  it('redacts every stored value, longest first, also JSON-escaped', async () => {
    const store = await SecretStore.open(dataDir);
    await store.set('a', 'K1', 'abcd1234');
    await store.set('a', 'K2', 'abcd1234-extended');
    await store.set('b', 'K3', 'quo"te\\x');
    await store.set('b', 'SHORT', 'ab');
    const text = `key=abcd1234-extended other=abcd1234 ${JSON.stringify({ v: 'quo"te\\x' })} ab`;
    expect(store.redact(text)).toBe(`key=${REDACTED} other=${REDACTED} {"v":"${REDACTED}"} ab`);
  });

  it('never writes into settings.json, and leaves a damaged secrets file alone', async () => {
    const configDir = join(tmp.dir, 'config');
    await addCustomAgent(configDir, { name: 'A', command: 'a' });
    const before = readFileSync(settingsFilePath(configDir), 'utf8');
    const store = await SecretStore.open(dataDir);
    await store.set('a', 'TOKEN', 'tok-999999');
    expect(readFileSync(settingsFilePath(configDir), 'utf8')).toBe(before);

    writeFileSync(join(dataDir, 'secrets.json'), '{ damaged');
    await expect(SecretStore.open(dataDir)).rejects.toThrow('is not valid JSON');
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toBe('{ damaged');
  });

  it('rejects names that are not environment variable names', async () => {
    const store = await SecretStore.open(dataDir);
    await expect(store.set('a', 'BAD NAME', 'x')).rejects.toThrow('"BAD NAME" is not an environment variable name');
    expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false);
  });
});
