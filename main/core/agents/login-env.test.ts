import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureLoginShellEnv, clearLoginShellEnvCache, getLoginShellEnv, parseEnvDump } from './login-env';
import { makeTempDir, writeFakeLoginShell, writeScript } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let bin: string;
const basePath = '/usr/bin:/bin';

beforeEach(() => {
  tmp = makeTempDir();
  bin = join(tmp.dir, 'login-bin');
  mkdirSync(bin);
  clearLoginShellEnvCache();
});
afterEach(() => tmp.cleanup());

describe('parseEnvDump', () => {
  it('reads NUL-separated entries between the markers, ignoring junk around them', () => {
    const out = 'motd\nM1A=1\0B=two\nlines\0_=/usr/bin/env\0SHLVL=2\0M1trailing';
    expect(parseEnvDump(out, 'M1')).toEqual({ A: '1', B: 'two\nlines' });
    expect(parseEnvDump('no markers here', 'M1')).toBeUndefined();
  });
});

describe('captureLoginShellEnv', () => {
  it("takes the login shell's environment, past whatever the shell prints", async () => {
    const shell = writeFakeLoginShell(join(tmp.dir, 'fake-shell'), bin);
    const result = await captureLoginShellEnv({ shell, baseEnv: { PATH: basePath, MULTI: 'a\nb', HOME: tmp.dir } });
    expect(result.source).toBe('login-shell');
    expect(result.error).toBeUndefined();
    expect(result.env.PATH).toBe(`${bin}:${basePath}`);
    expect(result.env.FAKE_LOGIN_SHELL).toBe('1');
    expect(result.env.MULTI).toBe('a\nb');
    expect(result.env.SHLVL).toBeUndefined();
  });

  it.runIf(existsSync('/bin/bash'))('works with a real bash reading a ~/.bash_profile that prints a banner', async () => {
    const home = join(tmp.dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.bash_profile'), `echo "Welcome back"\nexport PATH="${bin}:$PATH"\nexport FROM_PROFILE=yes\n`);
    const result = await captureLoginShellEnv({ shell: '/bin/bash', baseEnv: { PATH: basePath, HOME: home, TERM: 'dumb' } });
    expect(result.source).toBe('login-shell');
    expect(result.env.PATH!.split(':')[0]).toBe(bin);
    expect(result.env.FROM_PROFILE).toBe('yes');
  });

  it('gives up on a shell that hangs and falls back to the process environment', async () => {
    const shell = writeFakeLoginShell(join(tmp.dir, 'slow-shell'), bin, { sleepSeconds: 30 });
    const started = Date.now();
    const result = await captureLoginShellEnv({ shell, baseEnv: { PATH: basePath }, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.source).toBe('process');
    expect(result.env).toEqual({ PATH: basePath });
    expect(result.error).toBe(`the login shell ${shell} did not answer within 300 ms`);
  });

  it('falls back when the shell is missing or prints no environment', async () => {
    const missing = await captureLoginShellEnv({ shell: join(tmp.dir, 'no-such-shell'), baseEnv: { PATH: basePath } });
    expect(missing.source).toBe('process');
    expect(missing.error).toContain('could not start the login shell');
    const mute = writeScript(join(tmp.dir, 'mute-shell'), 'echo "oops" >&2; exit 3');
    const silent = await captureLoginShellEnv({ shell: mute, baseEnv: { PATH: basePath } });
    expect(silent.source).toBe('process');
    expect(silent.error).toBe(`the login shell ${mute} exited (code 3) without printing its environment: oops`);
  });

  it('can be turned off, and is not consulted on Windows', async () => {
    const off = await captureLoginShellEnv({ baseEnv: { PATH: basePath, ACP_WORKBENCH_LOGIN_SHELL: '0' } });
    expect(off).toMatchObject({ source: 'process', env: { PATH: basePath } });
    expect((await captureLoginShellEnv({ baseEnv: { PATH: 'C:\\x' }, platform: 'win32' })).source).toBe('process');
  });
});

describe('getLoginShellEnv', () => {
  it('asks the shell once and reuses the answer', async () => {
    const counter = join(tmp.dir, 'calls');
    const shell = writeScript(join(tmp.dir, 'counting-shell'), `echo x >> "${counter}"\nfor last; do :; done\n/bin/sh -c "$last"`);
    const baseEnv = { PATH: basePath, SHELL: shell };
    const a = await getLoginShellEnv({ baseEnv });
    const b = await getLoginShellEnv({ baseEnv });
    expect(a).toBe(b);
    expect(a.source).toBe('login-shell');
    expect(readFileSync(counter, 'utf8')).toBe('x\n');
  });
});
