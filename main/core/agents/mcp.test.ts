import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { selectMcpServers } from './mcp';
import type { McpServerSettings } from './settings';
import { makeTempDir, writeScript } from './test-support/fake-bin';

const servers: McpServerSettings[] = [
  { name: 'files', command: '/usr/local/bin/mcp-files', args: ['--root', '/srv'], env: [{ name: 'LOG', value: 'info' }], enabled: true },
  { type: 'http', name: 'docs', url: 'https://mcp.example.invalid/docs', headers: [{ name: 'X-Team', value: 'qa' }], enabled: true },
  { type: 'sse', name: 'legacy', url: 'https://mcp.example.invalid/sse', headers: [], enabled: true },
  { name: 'off', command: '/usr/bin/off', args: [], env: [], enabled: false },
];

describe('selectMcpServers', () => {
  it('sends stdio to every agent and skips http/sse the agent did not advertise, saying why', () => {
    const { send, skipped } = selectMcpServers(servers, {});
    expect(send).toEqual([{ name: 'files', command: '/usr/local/bin/mcp-files', args: ['--root', '/srv'], env: [{ name: 'LOG', value: 'info' }] }]);
    expect(skipped).toEqual([
      { name: 'docs', transport: 'http', reason: 'the agent does not support http MCP servers (mcpCapabilities.http not advertised)' },
      { name: 'legacy', transport: 'sse', reason: expect.stringContaining('mcpCapabilities.sse not advertised') },
      { name: 'off', transport: 'stdio', reason: 'disabled in settings' },
    ]);
    expect(selectMcpServers(servers, undefined).send.map((s) => s.name)).toEqual(['files']);
  });

  it('sends http and sse in ACP wire shapes when advertised', () => {
    const { send, skipped } = selectMcpServers(servers, { http: true, sse: true });
    expect(send).toEqual([
      { name: 'files', command: '/usr/local/bin/mcp-files', args: ['--root', '/srv'], env: [{ name: 'LOG', value: 'info' }] },
      { type: 'http', name: 'docs', url: 'https://mcp.example.invalid/docs', headers: [{ name: 'X-Team', value: 'qa' }] },
      { type: 'sse', name: 'legacy', url: 'https://mcp.example.invalid/sse', headers: [] },
    ]);
    expect(skipped.map((s) => s.name)).toEqual(['off']);
    expect(selectMcpServers(servers, { http: true }).skipped.map((s) => s.name)).toEqual(['legacy', 'off']);
  });

  describe('with a login-shell env', () => {
    let tmp: ReturnType<typeof makeTempDir>;
    beforeEach(() => (tmp = makeTempDir()));
    afterEach(() => tmp.cleanup());

    it('turns bare stdio commands into the absolute paths ACP requires, skipping ones not found', () => {
      const bin = join(tmp.dir, 'bin');
      mkdirSync(bin);
      const tool = writeScript(join(bin, 'mcp-tool'), 'exit 0');
      const { send, skipped } = selectMcpServers(
        [
          { name: 'tool', command: 'mcp-tool', args: [], env: [], enabled: true },
          { name: 'ghost', command: 'mcp-ghost', args: [], env: [], enabled: true },
        ],
        {},
        { env: { PATH: bin } },
      );
      expect(send).toEqual([{ name: 'tool', command: tool, args: [], env: [] }]);
      expect(skipped).toEqual([{ name: 'ghost', transport: 'stdio', reason: 'command "mcp-ghost" was not found on the login-shell PATH' }]);
    });
  });
});
