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

  it('lists every command in --help with its summary', async () => {
    const r = await runBuiltCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['web', 'agents', 'run', 'check', 'sessions', 'runs', 'replay', 'trace']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    for (const c of commands) expect(r.stdout).toContain(c.summary);
  });

  it('loads each listed command under its own name, with usage text', async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.usage).toMatch(new RegExp(`^Usage: acp-workbench ${entry.name}\\b`));
    }
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
