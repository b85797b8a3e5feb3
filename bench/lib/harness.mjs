// Helpers for *.bench.mjs: run a worker in a fresh process, medians of interleaved rounds, and
// the result rows bench/run.mjs prints.
import { spawn } from 'node:child_process';

/** Runs `node [nodeArgs] script args`, returns the JSON object its last stdout line holds. */
export function runWorker(script, args, { nodeArgs = [], timeoutMs = 180_000, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop();
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(last));
      } catch (e) {
        reject(new Error(`${script} ${args.join(' ')} failed (${e.message}): ${err.slice(-2000)}`));
      }
    });
  });
}

export function median(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * Runs each variant `rounds` times, interleaved (A B C, B C A, C A B...), so load changes on the
 * machine hit every variant alike. Returns { name: [result, ...] }.
 */
export async function interleaved(variants, rounds = 3, log = () => {}) {
  const names = Object.keys(variants);
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      const result = await variants[name]();
      out[name].push(result);
      log(`  round ${r + 1}: ${name} done`);
    }
  }
  return out;
}

/** Rounds to a few significant digits for the table. */
export function round(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return x ?? null;
  if (x === 0) return 0;
  const p = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(x))));
  return Number(x.toFixed(Math.min(p, 6)));
}

/** One result row; `ratio` is value / baseline. */
export function result({ name, value, unit, baseline = null, target, met, notes }) {
  const ratio = baseline && baseline.value ? round(value / baseline.value) : null;
  return {
    name,
    value: round(value),
    unit,
    baseline: baseline ? { name: baseline.name, value: round(baseline.value) } : null,
    ratio,
    target,
    met: Boolean(met),
    ...(notes ? { notes } : {}),
  };
}

export const log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
