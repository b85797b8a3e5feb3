import { describe, expect, it } from 'vitest';
import { loadPty } from './pty';

describe('loadPty', () => {
  it('loads @lydell/node-pty here, and says why not when terminal logins are switched off', async () => {
    expect((await loadPty({})).available).toBe(true);
    expect(await loadPty({ ACP_WORKBENCH_NO_PTY: '1' })).toEqual({ available: false, reason: 'terminal logins are switched off (ACP_WORKBENCH_NO_PTY=1)' });
  });
});
