import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, getAgent } from './catalog/catalog';
import { doctorAgent, PROBE_NOT_WIRED, runDoctor, type Probe } from './doctor';
import { defaultSettings } from './settings';
import type { ResolvedLaunch } from './types';
import { makeTempDir, writeFakeAgent, writeScript } from './test-support/fake-bin';

let tmp: ReturnType<typeof makeTempDir>;
let bin: string;
beforeEach(() => {
  tmp = makeTempDir();
  bin = join(tmp.dir, 'bin');
  mkdirSync(bin);
});
afterEach(() => tmp.cleanup());

const catalog = () => buildCatalog(defaultSettings());

describe('the doctor', () => {
  it('says when an agent cannot be started and how to install it, and that it did not probe', async () => {
    const report = await doctorAgent(getAgent(catalog(), 'goose'), { env: { PATH: bin } });
    expect(report.status).toBe('error');
    expect(report.probed).toBe(false);
    expect(report.findings[0]).toEqual({
      level: 'error',
      message: 'goose (goose) cannot be started: it is not installed (`goose` is not on the login-shell PATH).',
      fix: 'To install: Install goose with its installer or from its GitHub releases; `goose` must be on your PATH.',
    });
    expect(report.findings.at(-1)).toEqual({ level: 'info', message: PROBE_NOT_WIRED });
  });

  it('reports the installed version, optional keys and the quirks that apply', async () => {
    writeFakeAgent(bin, 'claude-agent-acp', '0.49.0');
    writeScript(join(bin, 'node'), 'echo v22.3.0');
    const report = await doctorAgent(getAgent(catalog(), 'claude'), {
      env: { PATH: bin },
      isRoot: true,
      secrets: { names: () => ['ANTHROPIC_API_KEY'], envFor: () => ({ ANTHROPIC_API_KEY: 'sk-x' }) },
    });
    expect(report.status).toBe('ok');
    const messages = report.findings.map((f) => `${f.level}: ${f.message}`);
    expect(messages).toContain(`ok: installed: ${join(bin, 'claude-agent-acp')} (version 0.49.0)`);
    expect(messages).toContain('ok: ANTHROPIC_API_KEY is set (secret store)');
    expect(messages.some((m) => m.includes('IS_SANDBOX=1'))).toBe(true);
    expect(report.launch).toBe(join(bin, 'claude-agent-acp'));
  });

  it('warns when the Node on PATH is too old for the agent', async () => {
    writeScript(join(bin, 'npx'), 'exit 0');
    writeScript(join(bin, 'node'), 'echo v20.20.2');
    const report = await doctorAgent(getAgent(catalog(), 'qwen'), { env: { PATH: bin } });
    expect(report.status).toBe('warning');
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'warning', message: 'needs Node 22 or newer; the node on your login PATH is 20' }));
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'info', message: 'not installed; runs through npx at version 0.24.4 (the first start downloads it, 10–20 s)' }));
  });

  it('passes the resolved launch to the probe and reports initialize and login methods', async () => {
    writeFakeAgent(bin, 'gemini', '0.61.0');
    const seen: ResolvedLaunch[] = [];
    const probe: Probe = async (launch) => {
      seen.push(launch);
      return { initialized: true, authMethods: [{ id: 'oauth-personal', name: 'Log in with Google' }, { id: 'login', name: 'Terminal login', type: 'terminal' }] };
    };
    const report = await doctorAgent(getAgent(catalog(), 'gemini'), { env: { PATH: bin }, probe });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ command: join(bin, 'gemini'), args: ['--acp'] });
    expect(report.probed).toBe(true);
    expect(report.findings).toContainEqual({ level: 'ok', message: 'answers initialize' });
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'info', message: 'offers login methods: Log in with Google (oauth-personal), Terminal login (login, terminal)' }));
    expect(report.findings.some((f) => f.message === PROBE_NOT_WIRED)).toBe(false);
  });

  it('reports a failed initialize with the command to try by hand', async () => {
    writeFakeAgent(bin, 'opencode', '1.18.0');
    const probe: Probe = async () => {
      throw new Error('agent exited with code 1: missing config');
    };
    const report = await doctorAgent(getAgent(catalog(), 'opencode'), { env: { PATH: bin }, probe });
    expect(report.status).toBe('error');
    expect(report.findings).toContainEqual({
      level: 'error',
      message: 'did not answer initialize: agent exited with code 1: missing config',
      fix: `Run \`${join(bin, 'opencode')} acp\` in a terminal to see what it prints on stderr.`,
    });
  });

  it('does not probe an agent that cannot start, and checks several in order', async () => {
    let calls = 0;
    const probe: Probe = async () => {
      calls++;
      return { initialized: true, authMethods: [] };
    };
    writeFakeAgent(bin, 'kimi', '1.0.0');
    const reports = await runDoctor([getAgent(catalog(), 'kimi'), getAgent(catalog(), 'junie')], { env: { PATH: bin }, probe });
    expect(reports.map((r) => [r.id, r.status, r.probed])).toEqual([
      ['kimi', 'ok', true],
      ['junie', 'error', false],
    ]);
    expect(calls).toBe(1);
  });
});
