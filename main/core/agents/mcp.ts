/**
 * Which configured MCP servers go to an agent in `session/new|load|resume|fork`: stdio always
 * (every agent must support it), http/sse only when the agent advertised them in
 * `mcpCapabilities`. Servers left out are reported with the reason, so the UI can say why a tool
 * is missing instead of leaving the user to guess.
 */
import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk/unstable';
import { isAbsolute } from 'node:path';
import type { McpServerSettings } from './settings-schema';
import { findExecutable } from './which';

export interface SkippedMcpServer {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  reason: string;
}

export interface McpSelection {
  send: McpServer[];
  skipped: SkippedMcpServer[];
}

export interface McpSelectOptions {
  /**
   * ACP wants an absolute `command` for stdio servers; a bare name (`npx`) is looked up on this
   * env's PATH (the login-shell env). Without it, bare names are sent as they are.
   */
  env?: NodeJS.ProcessEnv;
}

export function selectMcpServers(
  servers: readonly McpServerSettings[],
  capabilities: McpCapabilities | null | undefined,
  options: McpSelectOptions = {},
): McpSelection {
  const send: McpServer[] = [];
  const skipped: SkippedMcpServer[] = [];
  for (const server of servers) {
    const transport = server.type ?? 'stdio';
    if (!server.enabled) {
      skipped.push({ name: server.name, transport, reason: 'disabled in settings' });
      continue;
    }
    if ('url' in server) {
      if (!capabilities?.[server.type]) {
        const deprecated = server.type === 'sse' ? ' (SSE is deprecated by MCP; prefer http)' : '';
        skipped.push({ name: server.name, transport, reason: `the agent does not support ${server.type} MCP servers (mcpCapabilities.${server.type} not advertised)${deprecated}` });
        continue;
      }
      send.push({ type: server.type, name: server.name, url: server.url, headers: server.headers.map((h) => ({ name: h.name, value: h.value })) });
      continue;
    }
    let command = server.command;
    if (options.env && !isAbsolute(command)) {
      const found = findExecutable(command, options.env);
      if (!found) {
        skipped.push({ name: server.name, transport, reason: `command "${command}" was not found on the login-shell PATH` });
        continue;
      }
      command = found;
    }
    // The stdio variant has no `type` on the wire.
    send.push({ name: server.name, command, args: [...server.args], env: server.env.map((e) => ({ name: e.name, value: e.value })) });
  }
  return { send, skipped };
}
