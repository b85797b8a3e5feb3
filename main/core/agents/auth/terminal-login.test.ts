import { describe, expect, it } from 'vitest';
import type { AuthMethod } from '@agentclientprotocol/sdk/unstable';
import { isTerminalLoginMethod, terminalLoginCommand } from './terminal-login';

const launch = { command: '/usr/bin/claude-acp', args: ['--acp'], env: { PATH: '/bin', TOKEN: 'from-agent' }, cwd: '/home/u' };

describe('terminalLoginCommand', () => {
  it('runs the agent\'s own command with the method args appended and its env laid over the agent\'s', () => {
    const method = { type: 'terminal', id: 'login', name: 'Log in', args: ['--cli', 'auth login'], env: { TOKEN: 'from-method', MODE: 'x' } } as AuthMethod;
    expect(isTerminalLoginMethod(method)).toBe(true);
    expect(terminalLoginCommand(launch, method, '/fallback')).toEqual({
      command: '/usr/bin/claude-acp',
      args: ['--acp', '--cli', 'auth login'],
      env: { PATH: '/bin', TOKEN: 'from-method', MODE: 'x' },
      cwd: '/home/u',
      display: "TOKEN=from-method MODE=x /usr/bin/claude-acp --acp --cli 'auth login'",
    });
  });

  it('accepts the older Zed form with an explicit command in _meta["terminal-auth"]', () => {
    const method = { id: 'zed', name: 'Zed login', _meta: { 'terminal-auth': { command: 'agent-login', args: ['--device'], label: 'Log in', env: { A: '1' } } } } as AuthMethod;
    expect(isTerminalLoginMethod(method)).toBe(true);
    expect(terminalLoginCommand({ ...launch, cwd: undefined }, method, '/fallback')).toMatchObject({ command: 'agent-login', args: ['--device'], env: { PATH: '/bin', A: '1' }, cwd: '/fallback', display: 'A=1 agent-login --device' });
  });

  it('is not a terminal login for agent-type methods', () => {
    const method = { id: 'oauth', name: 'OAuth' } as AuthMethod;
    expect(isTerminalLoginMethod(method)).toBe(false);
    expect(terminalLoginCommand(launch, method, '/x')).toBeUndefined();
  });
});
