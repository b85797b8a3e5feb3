// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time per function, top N, and
// the share of GC / idle / program. Usage: node bench/lib/profile-summary.mjs FILE [N]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const d = dt[i] ?? 0;
  total += d;
  const cf = node.callFrame;
  const key = `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\//, '')}:${cf.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + d);
}
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 40));
for (const [key, us] of rows) console.log(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
console.log(`total ${(total / 1000).toFixed(0)} ms`);
