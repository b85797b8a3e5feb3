import { describe, expect, it } from 'vitest';
import { describeLaunch, isSecretEnvName, REDACTED } from './launch-spec';

describe('launch spec', () => {
  it('keeps every variable name but never the value of a secret-looking one', () => {
    const spec = describeLaunch({
      command: 'node',
      args: ['agent.js'],
      cwd: '/w',
      env: { PATH: '/bin', ANTHROPIC_API_KEY: 'sk-1', GH_TOKEN: 't', DB_PASSWORD: 'p', client_secret: 's', AWS_CREDENTIALS: 'c', HTTP_AUTHORIZATION: 'a', UNSET: undefined },
    });
    expect(spec.env).toEqual([
      { name: 'ANTHROPIC_API_KEY', redacted: true },
      { name: 'AWS_CREDENTIALS', redacted: true },
      { name: 'DB_PASSWORD', redacted: true },
      { name: 'GH_TOKEN', redacted: true },
      { name: 'HTTP_AUTHORIZATION', redacted: true },
      { name: 'PATH', value: '/bin' },
      { name: 'client_secret', redacted: true },
    ]);
    expect(JSON.stringify(spec)).not.toMatch(/sk-1|"t"|"p"|"s"|"c"|"a"/);
  });

  it('redacts values given to secret-looking flags on the command line', () => {
    const spec = describeLaunch({ command: 'agent', args: ['--api-key', 'sk-1', '--token=abc', '--model', 'x', '--auth', '--verbose'], cwd: '/w', env: {} });
    expect(spec.args).toEqual(['--api-key', REDACTED, `--token=${REDACTED}`, '--model', 'x', '--auth', '--verbose']);
  });

  it('recognises the issue’s secret words in any case', () => {
    for (const name of ['KEY', 'my_token', 'Secret', 'PASSWORD', 'auth_header', 'CREDENTIAL_FILE']) expect(isSecretEnvName(name)).toBe(true);
    for (const name of ['HOME', 'PATH', 'NODE_OPTIONS', 'XDG_CONFIG_HOME']) expect(isSecretEnvName(name)).toBe(false);
  });
});
