/**
 * Secret env values per agent (API keys), in `<dataDir>/secrets.json`, mode 0600, never in
 * settings.json (which users share and commit).
 *
 * Values pass through an `Encryptor`. The Electron shell plugs in one backed by `safeStorage`
 * (the OS keychain); core cannot import electron, so the default is `plainEncryptor`: no
 * encryption, protection by file mode only (like ~/.npmrc or ~/.aws/credentials).
 *
 * Each value says how it is stored: a plain string, or `{ "encrypted": "<encryptor id>",
 * "data": "<base64>" }`. So a file can hold both while a host moves from plain to encrypted: plain
 * values stay readable everywhere, and every write made where encryption is available encrypts
 * the plain values it finds (migration on write). A value encrypted by another method (the
 * desktop app's keychain, seen from the CLI) is listed but not used; setting it again here
 * replaces it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatJson, readTextIfExists, writeFileAtomic } from './json-file';
import { isRecord } from './validate';

export interface Encryptor {
  /** Recorded with each encrypted value; values are only decrypted by an encryptor with the same id. */
  readonly id: string;
  /** False when the OS offers no encryption now (Linux without a keyring): values are then stored plain. */
  isAvailable(): boolean;
  /** The stored form of `plain` (text: base64 for binary ciphertext). */
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

/** No encryption: values are stored as they are, protected by the file mode only. */
export const plainEncryptor: Encryptor = {
  id: 'none',
  isAvailable: () => false,
  encrypt: (plain) => plain,
  decrypt: (stored) => stored,
};

export const SECRETS_FILE_NAME = 'secrets.json';
export const SECRETS_FILE_VERSION = 2;
export const REDACTED = '[secret]';
/** Shorter values would redact ordinary words from every log line. */
export const MIN_REDACT_LENGTH = 4;

/** A plain value, or one encrypted by the encryptor named in `encrypted`. */
export type StoredSecret = string | { encrypted: string; data: string };

interface SecretsFile {
  version: typeof SECRETS_FILE_VERSION;
  /** agent id → env name → stored value */
  agents: Record<string, Record<string, StoredSecret>>;
}

/** How one value is held, as the UI lists it (never the value). */
export type SecretState = 'encrypted' | 'plain' | 'unreadable';

export interface SecretListing {
  name: string;
  state: SecretState;
  /** For `unreadable`: why this host cannot use it. */
  note?: string;
}

/** Whether new values are encrypted here, in words for the settings screen. */
export interface SecretProtection {
  encrypted: boolean;
  method: string;
  file: string;
}

export class SecretStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function emptyFile(): SecretsFile {
  return { version: SECRETS_FILE_VERSION, agents: {} };
}

function readStored(value: unknown, legacyEncryption: string | undefined): StoredSecret | undefined {
  if (typeof value === 'string') return legacyEncryption && legacyEncryption !== 'none' ? { encrypted: legacyEncryption, data: value } : value;
  if (isRecord(value) && typeof value.encrypted === 'string' && typeof value.data === 'string') return { encrypted: value.encrypted, data: value.data };
  return undefined;
}

function parseSecrets(text: string | undefined, file: string): SecretsFile {
  if (text === undefined || text.trim() === '') return emptyFile();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SecretStoreError(`${file} is not valid JSON (${(err as Error).message}); it was left untouched — fix or remove it to store secrets again`);
  }
  // Version 1 named one encryption for the whole file; version 2 marks each encrypted value.
  const legacy = isRecord(parsed) && parsed.version === 1 ? parsed.encryption : undefined;
  if (!isRecord(parsed) || !isRecord(parsed.agents) || (parsed.version === 1 && typeof legacy !== 'string')) {
    throw new SecretStoreError(`${file} is not a secrets file written by the workbench; it was left untouched — fix or remove it to store secrets again`);
  }
  const agents: SecretsFile['agents'] = {};
  for (const [id, values] of Object.entries(parsed.agents)) {
    if (!isRecord(values)) continue;
    const kept: Record<string, StoredSecret> = {};
    for (const [name, value] of Object.entries(values)) {
      const stored = readStored(value, legacy as string | undefined);
      if (stored !== undefined) kept[name] = stored;
    }
    agents[id] = kept;
  }
  return { version: SECRETS_FILE_VERSION, agents };
}

export class SecretStore {
  readonly file: string;
  private data: SecretsFile;

  private constructor(
    dataDir: string,
    private readonly encryptor: Encryptor,
    text: string | undefined,
  ) {
    this.file = join(dataDir, SECRETS_FILE_NAME);
    this.data = parseSecrets(text, this.file);
  }

  /** Open (and read) the store; a missing file is an empty store. */
  static async open(dataDir: string, encryptor: Encryptor = plainEncryptor): Promise<SecretStore> {
    return new SecretStore(dataDir, encryptor, await readTextIfExists(join(dataDir, SECRETS_FILE_NAME)));
  }

  /** Synchronous open, for hosts that need `redact` before anything async can run. */
  static openSync(dataDir: string, encryptor: Encryptor = plainEncryptor): SecretStore {
    let text: string | undefined;
    try {
      text = readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new SecretStore(dataDir, encryptor, text);
  }

  /** Whether values set now are encrypted, and by what. */
  protection(): SecretProtection {
    const encrypted = this.encryptor.isAvailable();
    return { encrypted, method: encrypted ? this.encryptor.id : 'none', file: this.file };
  }

  /** Why a stored value cannot be used here, or undefined when it can. */
  private unreadableReason(stored: StoredSecret): string | undefined {
    if (typeof stored === 'string') return undefined;
    if (stored.encrypted !== this.encryptor.id) {
      return `encrypted by "${stored.encrypted}", which this host (encryption "${this.encryptor.id}") cannot decrypt — set it again here to use it`;
    }
    if (!this.encryptor.isAvailable()) return `encrypted by "${stored.encrypted}", which is not available now (no OS keychain) — set it again to store it unencrypted`;
    return undefined;
  }

  private reveal(agentId: string, name: string, stored: StoredSecret): string {
    const why = this.unreadableReason(stored);
    if (why) throw new SecretStoreError(`The secret ${name} of ${agentId} is ${why}`);
    if (typeof stored === 'string') return stored;
    try {
      return this.encryptor.decrypt(stored.data);
    } catch (err) {
      throw new SecretStoreError(`The secret ${name} of ${agentId} could not be decrypted (${(err as Error).message}); set it again`);
    }
  }

  /** The value, or why it cannot be had here (another host's encryption, a keychain that changed). */
  private tryReveal(agentId: string, name: string, stored: StoredSecret): { value: string } | { error: string } {
    const why = this.unreadableReason(stored);
    if (why) return { error: why };
    try {
      return { value: this.reveal(agentId, name, stored) };
    } catch (err) {
      return { error: `encrypted by "${this.encryptor.id}" but could not be decrypted (${(err as Error).message}) — set it again` };
    }
  }

  get(agentId: string, name: string): string | undefined {
    const stored = this.data.agents[agentId]?.[name];
    return stored === undefined ? undefined : this.reveal(agentId, name, stored);
  }

  /** The names stored for an agent (values are not listed: the UI shows "set", not the value). */
  names(agentId: string): string[] {
    return Object.keys(this.data.agents[agentId] ?? {}).sort();
  }

  /** Names with how each is held, for the settings screen. */
  list(agentId: string): SecretListing[] {
    return this.names(agentId).map((name) => {
      const stored = this.data.agents[agentId]![name]!;
      const got = this.tryReveal(agentId, name, stored);
      if ('error' in got) return { name, state: 'unreadable' as const, note: got.error };
      return { name, state: typeof stored === 'string' ? ('plain' as const) : ('encrypted' as const) };
    });
  }

  /** Every agent id with at least one stored value. */
  agentIds(): string[] {
    return Object.keys(this.data.agents).filter((id) => this.names(id).length > 0).sort();
  }

  /** Names of an agent's values this host cannot use (they are left out of `envFor`). */
  unreadableNames(agentId: string): string[] {
    return this.list(agentId).filter((s) => s.state === 'unreadable').map((s) => s.name);
  }

  /** Every usable secret of an agent as env entries, for the launch. */
  envFor(agentId: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, stored] of Object.entries(this.data.agents[agentId] ?? {})) {
      const got = this.tryReveal(agentId, name, stored);
      if ('value' in got) out[name] = got.value;
    }
    return out;
  }

  async set(agentId: string, name: string, value: string): Promise<void> {
    if (!ENV_NAME.test(name)) throw new SecretStoreError(`"${name}" is not an environment variable name (letters, digits and _, not starting with a digit)`);
    await this.change((data) => {
      (data.agents[agentId] ??= {})[name] = value;
    });
  }

  /** True when something was deleted. */
  async delete(agentId: string, name?: string): Promise<boolean> {
    let deleted = false;
    await this.change((data) => {
      const values = data.agents[agentId];
      if (!values) return;
      if (name === undefined) {
        deleted = true;
        delete data.agents[agentId];
        return;
      }
      if (name in values) {
        deleted = true;
        delete values[name];
        if (Object.keys(values).length === 0) delete data.agents[agentId];
      }
    });
    return deleted;
  }

  /** Replace every stored secret value in `text` with `[secret]` (for logs, traces, exports). */
  redact(text: string): string {
    const values = this.allValues();
    let out = text;
    for (const value of values) out = out.split(value).join(REDACTED);
    return out;
  }

  private allValues(): string[] {
    const values = new Set<string>();
    for (const [agentId, agent] of Object.entries(this.data.agents)) {
      for (const [name, stored] of Object.entries(agent)) {
        const got = this.tryReveal(agentId, name, stored);
        if (!('value' in got)) continue;
        const value = got.value;
        if (value.length < MIN_REDACT_LENGTH) continue;
        values.add(value);
        // Traces and exports are JSON: a value with quotes or backslashes appears escaped there.
        values.add(JSON.stringify(value).slice(1, -1));
      }
    }
    // Longest first, so a secret that contains another is replaced whole.
    return [...values].sort((a, b) => b.length - a.length);
  }

  /**
   * Re-read, apply `mutate` (which stores plain values), then encrypt every plain value when
   * encryption is available — the new one and any left from before (migration on write) — so
   * the file never holds a plain value where it need not.
   */
  private async change(mutate: (data: SecretsFile) => void): Promise<void> {
    // Re-read first: the app, the web host and the CLI may share the data folder.
    const fresh = parseSecrets(await readTextIfExists(this.file), this.file);
    mutate(fresh);
    if (this.encryptor.isAvailable()) {
      for (const values of Object.values(fresh.agents)) {
        for (const [name, stored] of Object.entries(values)) {
          if (typeof stored === 'string') values[name] = { encrypted: this.encryptor.id, data: this.encryptor.encrypt(stored) };
        }
      }
    }
    await writeFileAtomic(this.file, formatJson(fresh), { mode: 0o600, dirMode: 0o700 });
    this.data = fresh;
  }
}
