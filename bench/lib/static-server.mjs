// Baseline for the web host's start-up: a bare Node HTTP server with one small page and a button.
// Prints {"url"} when listening.
import { createServer } from 'node:http';

const PAGE = '<!doctype html><meta charset="utf-8"><title>bare</title><button data-testid="new-session">New session</button>';
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(PAGE);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` })}\n`));
