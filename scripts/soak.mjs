// `npm run soak`: the reliability soak of issue #12 (not part of `npm test`): many hostile-agent
// seeds, then 6 agents streaming for 10 minutes; memory, file descriptors and child processes
// sampled. Writes the figures into docs/reliability.md (between the soak markers) and prints them.
//   npm run soak -- [--seeds 100] [--first-seed 1000] [--minutes 10] [--parts seeds,long] [--no-docs]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const args = process.argv.slice(2);
execFileSync(process.execPath, ['scripts/build.mjs', '--no-renderer'], { stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'acpwb-soak-'));
const out = join(dir, 'soak-run.cjs');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
await build({
  entryPoints: ['bench/soak/soak-run.ts'],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'warning',
  external: ['electron'],
  define: { __WORKBENCH_VERSION__: JSON.stringify(pkg.version), __dirname: JSON.stringify(join(process.cwd(), 'main', 'core', 'acp', 'test-support')) },
});
const run = spawnSync(process.execPath, ['--expose-gc', out, ...args.filter((a) => a !== '--no-docs')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
rmSync(dir, { recursive: true, force: true });
if (run.status !== 0) {
  console.error(`soak failed (exit ${run.status})`);
  process.exit(1);
}
const result = JSON.parse(run.stdout.trim().split('\n').pop());
console.log(JSON.stringify(result, null, 2));

if (!args.includes('--no-docs')) {
  const doc = 'docs/reliability.md';
  const text = readFileSync(doc, 'utf8');
  const start = '<!-- soak:figures:start -->';
  const end = '<!-- soak:figures:end -->';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i !== -1 && j > i) {
    writeFileSync(doc, `${text.slice(0, i + start.length)}\n${figures(result)}\n${text.slice(j)}`);
    console.log(`figures written to ${doc}`);
  }
}

function figures(r) {
  const lines = [`Latest run: ${r.at}, Node ${r.node}, ${r.platform}${r.gcExposed ? ', heap measured after GC' : ''}.`, ''];
  if (r.seeds) {
    const s = r.seeds;
    lines.push(
      `- **Hostile seeds** ${s.firstSeed}–${s.firstSeed + s.seeds - 1} (${s.seeds} seeds, ${s.hostileLines} hostile lines, ${s.hostileMiB} MiB, ${s.seconds} s): ` +
        `${s.failures.length} failures${s.failures.length ? ` (${s.failures.slice(0, 5).map((f) => `seed ${f.seed}: ${f.problem}`).join('; ')})` : ''}; ` +
        `heap after the first seed ${s.heapMiB.afterFirst} MiB, after the last ${s.heapMiB.afterLast} MiB, max ${s.heapMiB.max} MiB.`,
    );
  }
  if (r.long) {
    const l = r.long;
    const row = (name, x) => `| ${name} | ${x.atS} s | ${x.rssMiB} | ${x.heapMiB} | ${x.fds} | ${x.children} |`;
    lines.push(
      `- **Long run**: ${l.agents} agents streaming for ${l.minutes} min: ${l.turns} turns, ${l.turnErrors} turn errors, ${l.transcriptEntries} transcript entries.`,
      '',
      '| sample | at | RSS MiB | heap MiB | open fds | child processes |',
      '| --- | --- | --- | --- | --- | --- |',
      row('start (6 agents up)', l.start),
      row('after warm-up', l.afterWarmUp),
      row('end', l.end),
      row('after closing all', l.afterDispose),
      `| max | | ${l.max.rssMiB} | ${l.max.heapMiB} | ${l.max.fds} | ${l.max.children} |`,
    );
  }
  return lines.join('\n');
}
