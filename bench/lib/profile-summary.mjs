// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time per function, top N, and
// the share of GC / idle / program. Usage: node bench/lib/profile-summary.mjs FILE [N] [--inclusive]
// `--inclusive` ranks by inclusive time instead: the samples with the function anywhere on their
// stack (counted once per sample, however often it recurses), self time beside it.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const inclusive = argv.includes('--inclusive');
const [file, topArg] = argv.filter((a) => a !== '--inclusive');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const keyOf = (node) => {
  const cf = node.callFrame;
  return `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\//, '')}:${cf.lineNumber + 1}`;
};
const self = new Map();
const incl = new Map();
const dt = profile.timeDeltas;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const d = dt[i] ?? 0;
  total += d;
  const key = keyOf(node);
  self.set(key, (self.get(key) ?? 0) + d);
  if (!inclusive) continue;
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parentOf.get(id)) {
    const k = keyOf(byId.get(id));
    if (k.startsWith('(root)') || seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + d);
  }
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
const rank = inclusive ? incl : self;
const rows = [...rank.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 40));
for (const [key, us] of rows) {
  const selfPart = inclusive ? `  (self ${pct(self.get(key) ?? 0).trim()})` : '';
  console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}${selfPart}`);
}
console.log(`total ${(total / 1000).toFixed(0)} ms`);
