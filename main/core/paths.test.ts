import { describe, expect, it } from 'vitest';
import { resolvePaths } from './paths';

describe('resolvePaths', () => {
  const home = '/home/ada';

  it('uses XDG folders on Linux', () => {
    const p = resolvePaths({ env: { XDG_DATA_HOME: '/x/data', XDG_CONFIG_HOME: '/x/config' }, platform: 'linux', home });
    expect(p).toEqual({ dataDir: '/x/data/acp-workbench', configDir: '/x/config/acp-workbench' });
  });

  it('falls back to ~/.local/share and ~/.config on Linux', () => {
    const p = resolvePaths({ env: {}, platform: 'linux', home });
    expect(p).toEqual({ dataDir: '/home/ada/.local/share/acp-workbench', configDir: '/home/ada/.config/acp-workbench' });
  });

  it('uses the application-data folders on macOS', () => {
    const p = resolvePaths({ env: {}, platform: 'darwin', home });
    expect(p.dataDir).toBe('/home/ada/Library/Application Support/acp-workbench');
    expect(p.configDir).toBe('/home/ada/Library/Preferences/acp-workbench');
  });

  it('lets the environment override both', () => {
    const p = resolvePaths({
      env: { ACP_WORKBENCH_DATA_DIR: '/d', ACP_WORKBENCH_CONFIG_DIR: '/c', XDG_DATA_HOME: '/x' },
      platform: 'linux',
      home,
    });
    expect(p).toEqual({ dataDir: '/d', configDir: '/c' });
  });

  it('lets --data-dir win over the environment', () => {
    const p = resolvePaths({ env: { ACP_WORKBENCH_DATA_DIR: '/d' }, platform: 'linux', home, dataDirFlag: '/flag' });
    expect(p.dataDir).toBe('/flag');
  });
});
