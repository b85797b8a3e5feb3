import { build } from 'esbuild';
import { createRequire } from 'node:module';
const outfile = '/tmp/lead-gen-bundle.cjs';
await build({ stdin: { contents: "export { generateSessions } from './bench/generate-sessions';", resolveDir: '/work/main', loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'warning' });
const { generateSessions } = createRequire(import.meta.url)(outfile);
const seed = Number(process.argv[2] ?? 7);
const out = generateSessions({ dir: '/tmp/lead-hist/traces', count: 1, seed, startMs: Date.UTC(2027, 0, seed), plant: [{ session: 0, where: 'agent', word: 'quetzalcoatlus' }] });
console.log(out.map((t) => [t.file, t.bytes]));
