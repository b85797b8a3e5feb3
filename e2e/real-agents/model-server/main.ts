/**
 * Runs the scripted model server on its own, for poking at an agent by hand:
 *   npx esbuild e2e/real-agents/model-server/main.ts --bundle --platform=node --format=cjs --outfile=/tmp/model-server.cjs
 *   node /tmp/model-server.cjs [--port N] [--log /tmp/model-requests.jsonl]
 */
import { startModelServer } from './server';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const server = await startModelServer({ port: Number(value('--port') ?? 0), logFile: value('--log') });
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
