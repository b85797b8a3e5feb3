// The start-up baseline: what a minimal Node client needs for the exchange `acp-workbench run`
// does — spawn the agent, initialize, session/new, one prompt, close stdin, wait for the agent to
// exit. Bare line split + JSON.parse, nothing recorded. Usage: node bare-exchange.mjs CMD ARGS...
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map();
let nextId = 0;
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line) continue;
    const msg = JSON.parse(line);
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg.result);
      pending.delete(msg.id);
    }
  }
});
const request = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
const { sessionId } = await request('session/new', { cwd: process.cwd(), mcpServers: [] });
const { stopReason } = await request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
child.stdin.end();
child.on('exit', () => {
  process.stdout.write(`${JSON.stringify({ stopReason })}\n`);
});
