import { create } from 'zustand';
import type { AppInfo } from '../../common/api/app-types';
import type { Transport } from '../api/workbench';

export interface ConnectionStore {
  transport: Transport | null;
  state: 'connecting' | 'open' | 'closed';
  info: AppInfo | null;
  error: string | null;
  set(patch: Partial<Omit<ConnectionStore, 'set'>>): void;
}

export const useConnection = create<ConnectionStore>((set) => ({
  transport: null,
  state: 'connecting',
  info: null,
  error: null,
  set: (patch) => set(patch),
}));

/**
 * Whether the window is connected to the core. Effects that load from the core list it among
 * their dependencies so they load again after a reconnect: events sent while the window was
 * disconnected were heard by no one.
 */
export const useConnected = () => useConnection((s) => s.state === 'open');
