import { describe, expect, it } from 'vitest';
import { requestNames } from '../../../common/api/contract';
import { ApiError } from '../../../common/api/errors';
import { createCore } from '../core';

const core = () => createCore({ host: 'test', paths: { dataDir: '/tmp/d', configDir: '/tmp/c' } });

describe('CoreApi', () => {
  it('has a handler for every request of the contract', async () => {
    const c = core();
    for (const name of requestNames) {
      // Without proper params most requests refuse, but never as an unknown request.
      const outcome = await c.handle(name, name === 'app/ping' ? { nonce: 'n' } : undefined).then(
        () => 'answered',
        (err: { code?: string }) => err.code,
      );
      expect(outcome, name).not.toBe('unknown_request');
    }
    await c.dispose();
  });

  it('reports its version and paths in app/info', async () => {
    const info = (await core().handle('app/info', undefined)) as { version: string; dataDir: string };
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.dataDir).toBe('/tmp/d');
  });

  it('has no folder picker unless its host gives one, and says what to do instead', async () => {
    expect(await core().handle('app/info', undefined)).toMatchObject({ canPickFolder: false });
    await expect(core().handle('app/pick-folder', {})).rejects.toMatchObject({ code: 'not_available', message: expect.stringContaining('type the folder') });
    const picking = createCore({ host: 'test', paths: { dataDir: '/tmp/d', configDir: '/tmp/c' }, pickFolder: async (start) => `${start ?? '/'}picked` });
    expect(await picking.handle('app/info', undefined)).toMatchObject({ canPickFolder: true });
    expect(await picking.handle('app/pick-folder', { start: '/srv/' })).toEqual({ path: '/srv/picked' });
    expect(await picking.handle('app/pick-folder', { start: '  ' })).toEqual({ path: '/picked' });
  });

  it('rejects unknown requests with unknown_request', async () => {
    await expect(core().handle('app/nope', {})).rejects.toMatchObject({ code: 'unknown_request' });
    await expect(core().handle('__proto__', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('rejects bad ping params with bad_params', async () => {
    await expect(core().handle('app/ping', { nonce: 3 })).rejects.toMatchObject({ code: 'bad_params' });
  });

  it('delivers events to every connected sink until disposed, and survives a throwing sink', () => {
    const c = core();
    const got: string[] = [];
    const a = c.connect((_n, p) => got.push(`a:${(p as { title: string }).title}`));
    c.connect(() => {
      throw new Error('broken window');
    });
    c.connect((_n, p) => got.push(`c:${(p as { title: string }).title}`));
    c.emit('app/notice', { severity: 'info', title: 'one' });
    a.dispose();
    c.emit('app/notice', { severity: 'info', title: 'two' });
    expect(got).toEqual(['a:one', 'c:one', 'c:two']);
  });
});
