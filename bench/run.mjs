// `npm run bench`: runs every benchmark, prints one table (figure, baseline, ratio, target, met),
// writes bench/results/latest.json and puts the same table into docs/performance.md (between its
// `bench:table` markers). Each benchmark lives in bench/<name>.bench.mjs and exports
// `run(): Promise<Result[]>`. BENCH_ONLY=ingest,startup runs only the files whose names contain
// one of those words (the JSON and the docs are then left alone unless BENCH_WRITE=1).
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const started = performance.now();
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const machine = {
  platform: platform(),
  release: release(),
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.versions.node,
  loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
  date: new Date().toISOString(),
};
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => !only || only.some((word) => f.includes(word)))
  .sort();
const results = [];
for (const file of files) {
  const t0 = performance.now();
  const mod = await import(pathToFileURL(join(here, file)).href);
  try {
    results.push(...(await mod.run()));
  } catch (err) {
    // One broken benchmark must not hide the others' figures.
    console.error(`${file} failed: ${err instanceof Error ? err.stack : String(err)}`);
    results.push({ name: `${file}: failed`, value: null, unit: '', baseline: null, ratio: null, target: String(err instanceof Error ? err.message : err).slice(0, 200), met: false });
  }
  console.error(`${file}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
machine.loadAverageAtEnd = loadavg().map((x) => Number(x.toFixed(2)));
machine.benchSeconds = Math.round((performance.now() - started) / 1000);

const cell = (s) => String(s).replace(/\|/g, '\\|');
const table = [
  '| benchmark | figure | baseline | ratio | target | met |',
  '| --- | --- | --- | --- | --- | --- |',
  ...results.map(
    (r) =>
      `| ${cell(r.name)} | ${r.value ?? '-'} ${cell(r.unit)} | ${r.baseline ? `${r.baseline.value} (${cell(r.baseline.name)})` : '-'} | ${r.ratio ?? '-'} | ${cell(r.target)} | ${r.met ? 'yes' : '**no**'} |`,
  ),
].join('\n');
if (results.length === 0) console.log('No benchmarks yet.');
else console.log(table);

if (!only || process.env.BENCH_WRITE === '1') {
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'latest.json'), `${JSON.stringify({ machine, results }, null, 2)}\n`);
  const doc = join(here, '..', 'docs', 'performance.md');
  if (existsSync(doc)) {
    const text = readFileSync(doc, 'utf8');
    const start = '<!-- bench:table:start -->';
    const end = '<!-- bench:table:end -->';
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a !== -1 && b > a) {
      const when = `Measured ${machine.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(' / ')} at start (the machine is shared); the whole run took ${machine.benchSeconds} s.`;
      writeFileSync(doc, `${text.slice(0, a + start.length)}\n${when}\n\n${table}\n${text.slice(b)}`);
    }
  }
}
