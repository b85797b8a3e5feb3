/**
 * Child process of sdk-runtime.test.ts, bundled by the test the way scripts/build.mjs bundles the
 * CLI, with every module of the ACP SDK counting its own evaluation in `globalThis.__acpSdkEvaluated`.
 * Loads the core, answers the requests a window sends when it opens, then loads the SDK as an agent
 * connection does; prints how many SDK modules had been evaluated at each step, as one JSON line.
 * argv: a folder for the core's data and settings.
 */
import { join } from 'node:path';
import { createCore } from '../../core';
import { loadSdk } from '../sdk-runtime';

/** What the UI asks when it opens (renderer/main.tsx, the sessions, settings and history stores). */
const FIRST_REQUESTS: [string, unknown][] = [
  ['app/info', undefined],
  ['sessions/live', undefined],
  ['settings/get', undefined],
  ['secrets/list', {}],
  ['agents/catalog', undefined],
  ['history/list', { limit: 50 }],
];

const evaluated = (): number => (globalThis as { __acpSdkEvaluated?: number }).__acpSdkEvaluated ?? 0;

async function main(): Promise<void> {
  const dir = process.argv[2]!;
  const core = createCore({ host: 'test', paths: { dataDir: join(dir, 'data'), configDir: join(dir, 'config') } });
  const loaded = evaluated();
  const failed: string[] = [];
  for (const [name, params] of FIRST_REQUESTS) await core.handle(name, params).catch((err: unknown) => failed.push(`${name}: ${String(err)}`));
  const answered = evaluated();
  await loadSdk();
  const connected = evaluated();
  await core.dispose();
  process.stdout.write(`${JSON.stringify({ loaded, answered, connected, failed })}\n`);
}

void main();
