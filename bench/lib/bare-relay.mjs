// Baseline for the end-to-end latency benchmark: the least a browser UI could do. A bare Node
// server spawns the same flood agents, answers their handshake itself, and relays their stdout
// lines to a bare page over a WebSocket, batched every 16 ms (one message per tick for all
// agents); the page only JSON.parses each line. Prints {"url"} when listening; the page's
// `window.__done` turns true when every agent's turn has ended.
// Usage: node bare-relay.mjs AGENTS FLOOD-ARGS...
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const [agentsArg, ...floodArgs] = process.argv.slice(2);
const AGENTS = Number(agentsArg);
const PAGE = `<!doctype html><meta charset="utf-8"><title>bare</title><body><div id="n">0</div><script>
let n = 0;
const ws = new WebSocket('ws://' + location.host + '/ws');
ws.onmessage = (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.done) { window.__done = true; return; }
  for (const line of msg.lines) { JSON.parse(line); n++; }
  requestAnimationFrame(() => { document.getElementById('n').textContent = String(n); });
};
</script>`;

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(PAGE);
});
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (socket) => {
  let pending = [];
  let ended = 0;
  const timer = setInterval(() => {
    if (pending.length) socket.send(JSON.stringify({ lines: pending }));
    pending = [];
    if (ended === AGENTS) {
      clearInterval(timer);
      socket.send(JSON.stringify({ done: true }));
    }
  }, 16);
  for (let a = 0; a < AGENTS; a++) {
    const child = spawn(process.execPath, floodArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        if (!line) continue;
        const msg = JSON.parse(line);
        if (msg.method === 'session/update') pending.push(line);
        else if (msg.id === 0) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } })}\n`);
        else if (msg.id === 1) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: msg.result.sessionId, prompt: [] } })}\n`);
        else if (msg.id === 2) {
          ended++;
          child.stdin.end();
        }
      }
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` })}\n`);
});
