// `npm run bench`: runs every benchmark, prints one table (figure, baseline, ratio, target, met)
// and writes bench/results/latest.json. Benchmarks are added by the performance work (issue #11);
// each lives in bench/<name>.mjs and exports `run(): Promise<Result[]>`.
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const machine = { platform: platform(), release: release(), cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.versions.node };
const files = readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).sort();
const results = [];
for (const file of files) {
  const mod = await import(pathToFileURL(join(here, file)).href);
  results.push(...(await mod.run()));
}
if (results.length === 0) console.log('No benchmarks yet.');
else {
  console.log('| benchmark | figure | baseline | ratio | target | met |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.value} ${r.unit} | ${r.baseline ? `${r.baseline.value} (${r.baseline.name})` : '-'} | ${r.ratio ?? '-'} | ${r.target} | ${r.met ? 'yes' : 'no'} |`);
  }
}
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latest.json'), `${JSON.stringify({ machine, results }, null, 2)}\n`);
