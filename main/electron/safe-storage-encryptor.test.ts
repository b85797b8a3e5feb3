import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretStore } from '../core/agents/secrets';
import { SAFE_STORAGE_ENCRYPTOR_ID, safeStorageEncryptor } from './safe-storage-encryptor';
import { fakeSafeStorage } from './test-support/fake-electron';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'acpwb-safe-storage-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const secretsText = () => readFileSync(join(dataDir, 'secrets.json'), 'utf8');

describe('safeStorage encryptor', () => {
  it('round-trips a value through safeStorage, stored base64 with its marker, never plain in the file', async () => {
    const safe = fakeSafeStorage();
    const enc = safeStorageEncryptor(safe, { isReady: () => true, platform: 'darwin' });
    expect(enc.isAvailable()).toBe(true);
    const stored = enc.encrypt('sk-live-ABCDEF');
    expect(Buffer.from(stored, 'base64').toString('base64')).toBe(stored);
    expect(enc.decrypt(stored)).toBe('sk-live-ABCDEF');

    const store = await SecretStore.open(dataDir, enc);
    await store.set('claude-acp', 'ANTHROPIC_API_KEY', 'sk-live-ABCDEF');
    const text = secretsText();
    expect(text).not.toContain('sk-live-ABCDEF');
    expect(JSON.parse(text).agents['claude-acp'].ANTHROPIC_API_KEY).toEqual({ encrypted: SAFE_STORAGE_ENCRYPTOR_ID, data: expect.any(String) });
    expect(safe.encryptString).toHaveBeenCalledWith('sk-live-ABCDEF');
    expect((await SecretStore.open(dataDir, enc)).envFor('claude-acp')).toEqual({ ANTHROPIC_API_KEY: 'sk-live-ABCDEF' });
  });

  it('falls back to plain (0600) where there is no keychain, and says so once', async () => {
    const onUnavailable = vi.fn();
    const safe = fakeSafeStorage({ available: false });
    const enc = safeStorageEncryptor(safe, { isReady: () => true, platform: 'win32', onUnavailable });
    const store = await SecretStore.open(dataDir, enc);
    expect(store.protection()).toMatchObject({ encrypted: false, method: 'none' });
    await store.set('gemini', 'GEMINI_API_KEY', 'AIza-plain-1');
    await store.set('gemini', 'OTHER', 'AIza-plain-2');
    expect(JSON.parse(secretsText()).agents.gemini.GEMINI_API_KEY).toBe('AIza-plain-1');
    expect(safe.encryptString).not.toHaveBeenCalled();
    expect(onUnavailable).toHaveBeenCalledTimes(1);
    expect(onUnavailable.mock.calls[0]![0]).toContain('keychain');
  });

  it('treats Linux basic_text (a fixed key) as no encryption', () => {
    const onUnavailable = vi.fn();
    const enc = safeStorageEncryptor(fakeSafeStorage({ backend: 'basic_text' }), { isReady: () => true, platform: 'linux', onUnavailable });
    expect(enc.isAvailable()).toBe(false);
    expect(onUnavailable.mock.calls[0]![0]).toContain('no OS keyring');
    expect(safeStorageEncryptor(fakeSafeStorage({ backend: 'gnome_libsecret' }), { isReady: () => true, platform: 'linux' }).isAvailable()).toBe(true);
  });

  it('is unavailable before the app is ready (safeStorage cannot answer yet), without warning', () => {
    const onUnavailable = vi.fn();
    let ready = false;
    const enc = safeStorageEncryptor(fakeSafeStorage(), { isReady: () => ready, platform: 'darwin', onUnavailable });
    expect(enc.isAvailable()).toBe(false);
    ready = true;
    expect(enc.isAvailable()).toBe(true);
    expect(onUnavailable).not.toHaveBeenCalled();
  });

  it('reads plain values written before encryption was available and encrypts them on the next write', async () => {
    const plainTime = await SecretStore.open(dataDir);
    await plainTime.set('codex', 'OPENAI_API_KEY', 'sk-old-plain-value');
    expect(secretsText()).toContain('sk-old-plain-value');

    const enc = safeStorageEncryptor(fakeSafeStorage(), { isReady: () => true, platform: 'darwin' });
    const store = await SecretStore.open(dataDir, enc);
    expect(store.get('codex', 'OPENAI_API_KEY')).toBe('sk-old-plain-value');
    expect(store.list('codex')).toEqual([{ name: 'OPENAI_API_KEY', state: 'plain' }]);
    await store.set('gemini', 'GEMINI_API_KEY', 'AIza-new-value');
    const text = secretsText();
    expect(text).not.toContain('sk-old-plain-value');
    expect(text).not.toContain('AIza-new-value');
    const again = await SecretStore.open(dataDir, enc);
    expect(again.list('codex')).toEqual([{ name: 'OPENAI_API_KEY', state: 'encrypted' }]);
    expect(again.envFor('codex')).toEqual({ OPENAI_API_KEY: 'sk-old-plain-value' });
  });

  it('lists a value the keychain can no longer decrypt as unreadable, and launches without it', async () => {
    const enc = safeStorageEncryptor(fakeSafeStorage(), { isReady: () => true, platform: 'darwin' });
    const store = await SecretStore.open(dataDir, enc);
    await store.set('codex', 'GOOD', 'good-value');
    await store.set('codex', 'BROKEN', 'broken-value');
    const file = JSON.parse(secretsText());
    file.agents.codex.BROKEN.data = Buffer.from('garbage').toString('base64');
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify(file));
    const again = await SecretStore.open(dataDir, enc);
    expect(again.list('codex')).toEqual([
      { name: 'BROKEN', state: 'unreadable', note: expect.stringContaining('could not be decrypted') },
      { name: 'GOOD', state: 'encrypted' },
    ]);
    expect(again.envFor('codex')).toEqual({ GOOD: 'good-value' });
    expect(() => again.get('codex', 'BROKEN')).toThrow('could not be decrypted');
  });
});
