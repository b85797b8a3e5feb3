/**
 * Secret env values per agent (API keys), in `<dataDir>/secrets.json`, mode 0600, never in
 * settings.json (which users share and commit).
 *
 * Values pass through an `Encryptor`. The Electron shell plugs in one backed by `safeStorage`
 * (the OS keychain); core cannot import electron, so the default is `plainEncryptor`: no encryption,
 * protection by file mode only (like ~/.npmrc or ~/.aws/credentials). The file records which
 * encryptor wrote it, so values written by one are not fed to another.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatJson, readTextIfExists, writeFileAtomic } from './json-file';
import { isRecord } from './validate';

export interface Encryptor {
  /** Recorded in the file; values are only decrypted by an encryptor with the same id. */
  readonly id: string;
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

export const plainEncryptor: Encryptor = {
  id: 'none',
  encrypt: (plain) => plain,
  decrypt: (stored) => stored,
};

export const SECRETS_FILE_NAME = 'secrets.json';
export const REDACTED = '[secret]';
/** Shorter values would redact ordinary words from every log line. */
export const MIN_REDACT_LENGTH = 4;

interface SecretsFile {
  version: 1;
  encryption: string;
  /** agent id → env name → stored (encrypted) value */
  agents: Record<string, Record<string, string>>;
}

export class SecretStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

function emptyFile(encryption: string): SecretsFile {
  return { version: 1, encryption, agents: {} };
}

function parseSecrets(text: string | undefined, file: string, encryption: string): SecretsFile {
  if (text === undefined || text.trim() === '') return emptyFile(encryption);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SecretStoreError(`${file} is not valid JSON (${(err as Error).message}); it was left untouched — fix or remove it to store secrets again`);
  }
  if (!isRecord(parsed) || !isRecord(parsed.agents) || typeof parsed.encryption !== 'string') {
    throw new SecretStoreError(`${file} is not a secrets file written by the workbench; it was left untouched — fix or remove it to store secrets again`);
  }
  const agents: SecretsFile['agents'] = {};
  for (const [id, values] of Object.entries(parsed.agents)) {
    if (!isRecord(values)) continue;
    agents[id] = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return { version: 1, encryption: parsed.encryption, agents };
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
    this.data = parseSecrets(text, this.file, encryptor.id);
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

  /** Throws when the file was written by another encryptor (its values cannot be read here). */
  assertReadable(): void {
    if (this.data.encryption !== this.encryptor.id && Object.keys(this.data.agents).length > 0) {
      throw new SecretStoreError(
        `${this.file} was written with encryption "${this.data.encryption}" but this host uses "${this.encryptor.id}"; its secrets cannot be read here — set them again in this app`,
      );
    }
  }

  get(agentId: string, name: string): string | undefined {
    this.assertReadable();
    const stored = this.data.agents[agentId]?.[name];
    return stored === undefined ? undefined : this.encryptor.decrypt(stored);
  }

  /** The names stored for an agent (values are not listed: the UI shows "set", not the value). */
  names(agentId: string): string[] {
    return Object.keys(this.data.agents[agentId] ?? {}).sort();
  }

  /** Every secret of an agent as env entries, for the launch. */
  envFor(agentId: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of this.names(agentId)) out[name] = this.get(agentId, name)!;
    return out;
  }

  async set(agentId: string, name: string, value: string): Promise<void> {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new SecretStoreError(`"${name}" is not an environment variable name`);
    await this.change((data) => {
      (data.agents[agentId] ??= {})[name] = this.encryptor.encrypt(value);
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
    if (this.data.encryption !== this.encryptor.id) return [];
    const values = new Set<string>();
    for (const agent of Object.values(this.data.agents)) {
      for (const stored of Object.values(agent)) {
        const value = this.encryptor.decrypt(stored);
        if (value.length < MIN_REDACT_LENGTH) continue;
        values.add(value);
        // Traces and exports are JSON: a value with quotes or backslashes appears escaped there.
        values.add(JSON.stringify(value).slice(1, -1));
      }
    }
    // Longest first, so a secret that contains another is replaced whole.
    return [...values].sort((a, b) => b.length - a.length);
  }

  private async change(mutate: (data: SecretsFile) => void): Promise<void> {
    // Re-read first: the app, the web host and the CLI may share the data folder.
    const fresh = parseSecrets(await readTextIfExists(this.file), this.file, this.encryptor.id);
    this.data = fresh;
    this.assertReadable();
    fresh.encryption = this.encryptor.id;
    mutate(fresh);
    await writeFileAtomic(this.file, formatJson(fresh), { mode: 0o600, dirMode: 0o700 });
  }
}
