import type * as Electron from 'electron';
import type { Encryptor } from '../core/agents/secrets';

/** The parts of Electron's `safeStorage` the encryptor uses. */
export type SafeStorageLike = Pick<Electron.SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

/** Written next to each value it encrypted (`{"encrypted": "electron-safeStorage", "data": base64}`). */
export const SAFE_STORAGE_ENCRYPTOR_ID = 'electron-safeStorage';

export interface SafeStorageEncryptorOptions {
  platform?: NodeJS.Platform;
  /** safeStorage answers reliably only once the app is ready (on Linux the backend is chosen then). */
  isReady: () => boolean;
  /** Called once, the first time encryption turns out to be unavailable, with the reason. */
  onUnavailable?: (reason: string) => void;
}

/**
 * The secret store's encryptor in the desktop app: the OS keychain through `safeStorage` (macOS
 * Keychain, Windows DPAPI, libsecret/KWallet on Linux). Where there is none — Linux without a
 * keyring, where Electron falls back to `basic_text`, a fixed key that only obfuscates — it reports
 * itself unavailable, and the store keeps values plain in its 0600 file instead of pretending.
 */
export function safeStorageEncryptor(safeStorage: SafeStorageLike, options: SafeStorageEncryptorOptions): Encryptor {
  const platform = options.platform ?? process.platform;
  let warned = false;
  const unavailable = (reason: string): false => {
    if (!warned) {
      warned = true;
      options.onUnavailable?.(reason);
    }
    return false;
  };
  return {
    id: SAFE_STORAGE_ENCRYPTOR_ID,
    isAvailable() {
      if (!options.isReady()) return false;
      if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
        return unavailable('no OS keyring was found (Electron would only obfuscate the values with a fixed key)');
      }
      if (!safeStorage.isEncryptionAvailable()) return unavailable('the OS keychain is not available to the app');
      return true;
    },
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
}
