// A minimal raw ACP agent (no SDK): answers initialize, session/new and session/prompt; a prompt
// streams two session/update chunks, asks session/request_permission, reports the chosen option
// and ends the turn. A prompt "die" exits with code 3 without answering; "many" streams 500 chunks.
// Env: RAW_AGENT_LOG = file that receives every line the agent reads on stdin (verbatim);
//      RAW_AGENT_NOISE = 1 to print a banner, an invalid-UTF-8 line and a non-JSON-RPC object on
//      stdout before the initialize answer.
const fs = require('node:fs');

const log = process.env.RAW_AGENT_LOG;
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const pending = new Map();
let nextId = 0;

function request(method, params) {
  const id = nextId++;
  send({ jsonrpc: '2.0', id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}

function update(sessionId, text) {
  send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
}

async function handle(message) {
  if (!('method' in message)) {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
    return;
  }
  const { id, method, params } = message;
  if (id === undefined) return; // notifications: nothing to do
  if (method === 'initialize') {
    if (process.env.RAW_AGENT_NOISE === '1') {
      process.stdout.write('Welcome to RawAgent 1.0 (this banner is stdout noise)\n');
      process.stdout.write(Buffer.from([0x62, 0x61, 0x64, 0xff, 0x0a]));
      process.stdout.write('{"hello":"an object, but not JSON-RPC"}\n');
    }
    send({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  } else if (method === 'session/new') {
    send({ jsonrpc: '2.0', id, result: { sessionId: 'sess-1' } });
  } else if (method === 'session/prompt') {
    const text = params.prompt?.[0]?.text;
    if (text === 'die') {
      process.stderr.write('dying on purpose\n');
      process.exit(3);
    }
    if (text === 'many') {
      for (let i = 0; i < 500; i++) update(params.sessionId, `#${i}`);
      send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
      return;
    }
    update(params.sessionId, 'Hello');
    update(params.sessionId, ' world');
    const answer = await request('session/request_permission', {
      sessionId: params.sessionId,
      toolCall: { toolCallId: 'call-1', title: 'Write file', kind: 'edit' },
      options: [
        { optionId: 'yes-once', name: 'Allow', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    });
    const outcome = answer.result?.outcome;
    update(params.sessionId, `permission: ${outcome?.outcome}/${outcome?.optionId}`);
    send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
  } else {
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    if (log) fs.appendFileSync(log, line + '\n');
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue;
    }
    void handle(message);
  }
});
process.stdin.on('end', () => process.exit(0));
