/**
 * The real-agent suite (`npm run test:agents`, issue #13): every pinned real agent, driven by the
 * scripted model server, through the workbench's own code path (`acp-workbench run --json`, and
 * the core session API for a cancel while a permission request is pending). See suite/cases.ts for
 * the cases and README.md for the setup. Run through run-suite.mjs, which bundles this file and
 * the CLI first:
 *
 *   node e2e/real-agents/run-suite.mjs [--agents codex,gemini] [--cases full,reject] [--out DIR]
 *
 * Prints one line per case and one per agent (version, turns, tool calls, permissions, files
 * changed, findings); writes DIR/suite-report.json, DIR/summary.json ({passed, failed, skipped},
 * read by scripts/summarize-tests.mjs), DIR/suite-model-requests.jsonl and, per agent and case,
 * DIR/<agent>/<case>/ (events.jsonl, cli-stderr.txt, trace.jsonl, conformance.json, result.json).
 * Default DIR: test-results/real-agents. With REAL_AGENTS_REQUIRED=1 (CI) an agent that is not
 * installed is a failure instead of a skip.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { AGENTS, isInstalled, type AgentSpec } from './agents';
import { startModelServer } from './model-server/server';
import { CASES, runCase, type CaseName, type CaseResult } from './suite/cases';
import { runningGroups } from './suite/cli-run';
import { ONCE_AGENTS, ONCE_CASES, runCompare, runResumeFork, type OnceCaseName } from './suite/once-cases';

interface SuiteArgs {
  agents: string[] | null;
  cases: CaseName[];
  /** Cases that run once, not per agent (suite/once-cases.ts). */
  once: OnceCaseName[];
  out: string;
  cli: string;
  required: boolean;
}

function parseArgs(argv: string[]): SuiteArgs {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const all: string[] = [...CASES, ...ONCE_CASES];
  const chosen = value('--cases')?.split(',') ?? all;
  for (const c of chosen) if (!all.includes(c)) throw new Error(`unknown case "${c}" (cases: ${all.join(', ')})`);
  const cases = chosen.filter((c): c is CaseName => (CASES as readonly string[]).includes(c));
  const once = chosen.filter((c): c is OnceCaseName => (ONCE_CASES as readonly string[]).includes(c));
  const cli = value('--cli');
  if (!cli) throw new Error('--cli PATH (the bundled acp-workbench CLI) is required; run through e2e/real-agents/run-suite.mjs');
  return {
    agents: value('--agents')?.split(',') ?? null,
    cases,
    once,
    out: resolve(value('--out') ?? 'test-results/real-agents'),
    cli: resolve(cli),
    required: process.env['REAL_AGENTS_REQUIRED'] === '1',
  };
}

function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

/** Why an agent cannot run here, or null. */
function missing(spec: AgentSpec): string | null {
  if (!isInstalled(spec)) return `not installed (run: cd e2e/real-agents/agents && npm ci) — ${spec.entry} is missing`;
  if (spec.id === 'codex' && !onPath('bwrap')) return 'bubblewrap (bwrap) is not installed: codex runs every command inside it (apt-get install -y bubblewrap)';
  return null;
}

interface AgentLine {
  agent: string;
  pkg: string;
  version: string;
  agentInfo: unknown;
  skipped?: string;
  turns: number;
  toolCalls: number;
  permissions: number;
  filesChanged: number;
  findings: string[];
  passed: number;
  failed: number;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function versionOf(line: AgentLine): string {
  const info = line.agentInfo as { name?: string; version?: string } | null | undefined;
  return info?.version && info.version !== line.version ? `${line.version} (agent says ${info.name ?? ''} ${info.version})` : line.version;
}

function printCase(r: CaseResult): void {
  const failed = r.checks.filter((c) => !c.ok && !c.known);
  const known = r.checks.filter((c) => !c.ok && c.known);
  const head = `  ${pad(r.agent, 12)} ${pad(r.case, 18)} ${r.status === 'passed' ? 'PASS' : 'FAIL'} ${pad(`${(r.durationMs / 1000).toFixed(1)} s`, 8)}`;
  process.stdout.write(`${head} stop=${r.stopReason ?? '-'} tools=${r.toolCalls} permissions=${r.permissions} files=${r.diskChanges.join(',') || '-'}${r.steps ? `  [${r.steps}]` : ''}\n`);
  for (const c of failed) process.stdout.write(`      ✗ ${c.name}: ${c.detail}\n`);
  for (const c of known) process.stdout.write(`      ~ known failure: ${c.name}: ${c.detail}\n        why: ${c.known}\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  mkdirSync(args.out, { recursive: true });
  for (const f of ['suite-report.json', 'summary.json', 'suite-model-requests.jsonl']) rmSync(join(args.out, f), { force: true });
  const server = await startModelServer({ logFile: join(args.out, 'suite-model-requests.jsonl') });
  const stop = (): void => {
    for (const pgid of runningGroups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`real-agent suite: model server ${server.url}; CLI ${args.cli}; output ${args.out}\n`);

  const results: CaseResult[] = [];
  const lines: AgentLine[] = [];
  let skipped = 0;
  let failedMissing = 0;
  for (const spec of AGENTS) {
    if (!args.cases.length) break;
    if (args.agents && !args.agents.includes(spec.id)) continue;
    const line: AgentLine = { agent: spec.id, pkg: spec.pkg, version: spec.version, agentInfo: null, turns: 0, toolCalls: 0, permissions: 0, filesChanged: 0, findings: [], passed: 0, failed: 0 };
    lines.push(line);
    const why = missing(spec);
    if (why) {
      line.skipped = why;
      if (args.required) failedMissing += args.cases.length;
      else skipped += args.cases.length;
      process.stdout.write(`  ${pad(spec.id, 12)} ${args.required ? 'FAIL' : 'SKIP'}: ${why}\n`);
      continue;
    }
    const findings = new Set<string>();
    for (const name of args.cases) {
      const r = await runCase({ spec, server, cli: args.cli, out: args.out }, name);
      results.push(r);
      printCase(r);
      line.agentInfo ??= r.agentInfo ?? null;
      line.turns += 1;
      line.toolCalls += r.toolCalls;
      line.permissions += r.permissions;
      line.filesChanged += r.diskChanges.length;
      for (const f of r.findings) findings.add(f.id);
      for (const id of r.conformance ?? []) findings.add(id);
      if (r.status === 'passed') line.passed++;
      else line.failed++;
    }
    line.findings = [...findings].sort();
  }
  // The cases that run once, with the agents they name; only when every one of them was selected.
  const onceResults: CaseResult[] = [];
  for (const name of args.once) {
    const ids = ONCE_AGENTS[name];
    if (args.agents && !ids.every((id) => args.agents!.includes(id))) continue;
    const specs = ids.map((id) => AGENTS.find((s) => s.id === id)!);
    const why = specs.map((s) => (missing(s) ? `${s.id}: ${missing(s)}` : null)).filter(Boolean).join('; ');
    if (why) {
      if (args.required) failedMissing++;
      else skipped++;
      process.stdout.write(`  ${pad(ids.join('+'), 12)} ${pad(name, 18)} ${args.required ? 'FAIL' : 'SKIP'}: ${why}\n`);
      continue;
    }
    const ctx = { specs, server, cli: args.cli, out: args.out };
    const r = name === 'compare' ? await runCompare(ctx) : await runResumeFork(ctx);
    onceResults.push(r);
    results.push(r);
    printCase(r);
  }
  await server.close();

  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length + failedMissing;
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write('\nreal agents (version, turns, tool calls, permissions, files changed, findings):\n');
  for (const l of lines) {
    if (l.skipped) {
      process.stdout.write(`  ${pad(l.agent, 12)} ${pad(l.version, 8)} ${args.required ? 'FAILED' : 'skipped'}: ${l.skipped}\n`);
      continue;
    }
    process.stdout.write(
      `  ${pad(l.agent, 12)} version ${versionOf(l)}  turns ${l.turns}  tool calls ${l.toolCalls}  permissions ${l.permissions}  files changed ${l.filesChanged}  ` +
        `findings ${l.findings.length}${l.findings.length ? ` (${l.findings.join(', ')})` : ''}  — ${l.passed}/${l.passed + l.failed} cases passed\n`,
    );
  }
  for (const r of onceResults) process.stdout.write(`  ${pad(r.case, 12)} ${r.agent}  ${r.status === 'passed' ? 'passed' : 'FAILED'}\n`);
  if (server.unhandled.length) process.stdout.write(`model server: unhandled requests: ${[...new Set(server.unhandled)].join(', ')}\n`);
  const summary = { passed, failed, skipped, knownFailures: results.flatMap((r) => r.checks.filter((c) => !c.ok && c.known).map((c) => `${r.agent} ${r.case}: ${c.name}`)) };
  writeFileSync(join(args.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(args.out, 'suite-report.json'), `${JSON.stringify({ durationS: Number(seconds), agents: lines, results, modelServerUnhandled: server.unhandled }, null, 2)}\n`);
  process.stdout.write(`\nreal-agent suite: ${passed} passed, ${failed} failed, ${skipped} skipped in ${seconds} s; report ${join(args.out, 'suite-report.json')}\n`);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`real-agent suite: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
