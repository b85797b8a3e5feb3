import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runBuiltCli } from './test-support/run-cli';
import { commands } from './commands';

const version = (JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('acp-workbench CLI', () => {
  it('prints its version', async () => {
    const r = await runBuiltCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('lists every command in --help, marking the ones not built yet', async () => {
    const r = await runBuiltCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['web', 'agents', 'run', 'check', 'sessions', 'runs', 'replay', 'trace']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    for (const c of commands.filter((c) => c.notAvailableYet)) {
      expect(r.stdout).toMatch(new RegExp(`^  ${c.name} .*\\(not available yet\\)$`, 'm'));
    }
  });

  it('exits 2 with a clear message for commands not built yet', async () => {
    const pending = commands.filter((c) => c.notAvailableYet);
    for (const c of pending) {
      const r = await runBuiltCli([c.name]);
      expect(r.code, c.name).toBe(2);
      expect(r.stderr).toContain('not available yet');
    }
  });

  it('loads, for each name it lists, the command of that name (commands are loaded when they run)', async () => {
    for (const c of commands) expect((await c.load()).name).toBe(c.name);
  });

  it('exits 2 on an unknown command or flag, naming it', async () => {
    const unknown = await runBuiltCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badFlag = await runBuiltCli(['web', '--bogus']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--bogus');
  });

  it('exits 2 without a command, printing the help', async () => {
    const r = await runBuiltCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Usage: acp-workbench');
  });

  it('shows per-command help', async () => {
    const r = await runBuiltCli(['web', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--port');
  });

  it('refuses a bad port', async () => {
    const r = await runBuiltCli(['web', '--port', 'eighty']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--port must be a port number');
  });
});
