import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_AGENT } from '../../core/acp/test-support/fixture-world';
import { runBuiltCli } from '../test-support/run-cli';

describe('run passes the MCP servers of settings.json', () => {
  it('sends stdio servers always and http ones only to an agent that advertised them, saying why one was left out', async () => {
    const base = mkdtempSync(join(tmpdir(), 'acpwb-mcp-'));
    const config = join(base, 'config');
    mkdirSync(config);
    writeFileSync(
      join(config, 'settings.json'),
      JSON.stringify({
        mcpServers: [
          { name: 'local-tools', command: process.execPath, args: ['server.js'], env: [{ name: 'LEVEL', value: 'debug' }] },
          { type: 'http', name: 'team-docs', url: 'https://mcp.example.com/docs', headers: [] },
          { name: 'off', command: process.execPath, args: [], env: [], enabled: false },
        ],
      }),
    );
    const received = join(base, 'received.jsonl');
    const scenario = JSON.stringify({ initialize: { agentCapabilities: { mcpCapabilities: { http: false, sse: false } } } });
    const r = await runBuiltCli([
      'run', '--json', '--data-dir', join(base, 'data'), '--config-dir', config, '--cwd', base, '--prompt', 'hi',
      '--agent-cmd', `"${process.execPath}" "${FIXTURE_AGENT}" --scenario-json '${scenario}' --received-log "${received}"`,
    ]);
    expect(r.code).toBe(0);
    const newSession = readFileSync(received, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { message?: { method?: string; params?: { mcpServers?: unknown[] } } }).message)
      .find((m) => m?.method === 'session/new');
    expect(newSession?.params?.mcpServers).toEqual([{ name: 'local-tools', command: process.execPath, args: ['server.js'], env: [{ name: 'LEVEL', value: 'debug' }] }]);
    const trace = readdirSync(join(base, 'data', 'traces')).map((f) => readFileSync(join(base, 'data', 'traces', f), 'utf8')).join('\n');
    expect(trace).toContain('MCP server \\"team-docs\\" (http) was not sent');
  });
});
