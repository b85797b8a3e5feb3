/**
 * Smoke check: drives each installed real agent through the scripted scenarios over raw ACP and
 * reports what happened. Run from the repo root after `npm ci` in e2e/real-agents/agents:
 *
 *   npx esbuild e2e/real-agents/smoke.ts --bundle --platform=node --format=cjs --outfile=/tmp/smoke.cjs
 *   node /tmp/smoke.cjs [--agents claude-0.49,gemini] [--scenarios text,edit-file] [--out DIR] [--env K=V]... [--strict]
 *
 * Writes DIR/report.json, DIR/model-requests.jsonl (every model request) and one ACP traffic log
 * per agent and scenario (DIR/<agent>-<scenario>.jsonl). Default DIR: test-results/real-agents.
 * Client capabilities an agent is known to mishandle (`AgentSpec.withhold`) are not advertised
 * to it unless --strict is given.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AcpClient, type ClientCall } from './acp-client';
import { AGENTS, isInstalled, type AgentSpec } from './agents';
import { startModelServer, type ModelServer } from './model-server/server';
import { DEFAULTS } from './model-server/scenarios';
import { agentText, changedFiles, judge, snapshot, stepsPlayed, updateKinds, type ScenarioName } from './smoke-checks';

const ALL_SCENARIOS: ScenarioName[] = ['text', 'edit-file', 'create-file', 'shell', 'shell-write', 'plan', 'slow'];

interface ScenarioResult {
  scenario: ScenarioName;
  pass: boolean;
  detail: string;
  initializeMs?: number;
  sessionNewMs?: number;
  stopReason?: string;
  turnMs?: number;
  filesChanged: string[];
  updates: Record<string, number>;
  permissions: string[];
  clientCalls: string[];
  steps: string;
  error?: string;
  /** How the agent ended after the turn: on stdin EOF, or only after a signal. */
  closedBy?: string;
  stderrTail?: string;
}

interface AgentResult {
  agent: string;
  pkg: string;
  version: string;
  installed: boolean;
  initialize?: { ok: boolean; protocolVersion?: unknown; agentInfo?: unknown; error?: string };
  sessionNew?: { ok: boolean; error?: string };
  scenarios: ScenarioResult[];
}

interface SmokeArgs {
  agents: string[] | null;
  scenarios: ScenarioName[];
  out: string;
  extraEnv: Record<string, string>;
  /** Advertise every client capability, even those an agent is known to mishandle. */
  strict: boolean;
}

function parseArgs(argv: string[]): SmokeArgs {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    agents: value('--agents')?.split(',') ?? null,
    scenarios: (value('--scenarios')?.split(',') as ScenarioName[] | undefined) ?? ALL_SCENARIOS,
    out: resolve(value('--out') ?? 'test-results/real-agents'),
    strict: argv.includes('--strict'),
    // --env K=V (repeatable): extra variables for every agent, e.g. to turn a quirk on or off.
    extraEnv: Object.fromEntries(
      argv.flatMap((a, i) => (argv[i - 1] === '--env' ? [[a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]] : [])),
    ),
  };
}

function promptFor(scenario: ScenarioName, projectDir: string): string {
  switch (scenario) {
    case 'edit-file':
      return `Please change the greeting in notes.txt. [scenario:edit-file file=${join(projectDir, 'notes.txt')}]`;
    case 'create-file':
      // No file argument: the model server finds the project dir in the agent's own system prompt.
      return 'Please create a file. [scenario:create-file]';
    case 'shell':
      return 'Please run a command. [scenario:shell]';
    case 'shell-write':
      // A command with a side effect: agents that auto-allow read-only commands must ask for this one.
      return 'Please run a command that writes a file. [scenario:shell cmd="echo acp-shell-ok > shell-ok.txt" escalate=true]';
    case 'plan':
      return 'Please plan the work. [scenario:plan]';
    case 'slow':
      return 'Tell me a long story. [scenario:slow]';
    default:
      return 'Say hello. [scenario:text]';
  }
}

function capabilitiesFor(spec: AgentSpec, strict: boolean): Record<string, unknown> {
  const withheld = strict ? [] : (spec.withhold?.capabilities ?? []);
  const on = (name: 'readTextFile' | 'writeTextFile' | 'terminal'): boolean => !withheld.includes(name);
  return { fs: { readTextFile: on('readTextFile'), writeTextFile: on('writeTextFile') }, terminal: on('terminal') };
}

/** Answers permission requests with the first allow option, picked by kind (ids differ per agent). */
function chooseOption(options: { optionId: string; kind: string }[]): string | undefined {
  return (options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always') ?? options[0])?.optionId;
}

function installHandlers(client: AcpClient, projectDir: string): void {
  client.on('session/request_permission', (p) => {
    const optionId = chooseOption((p['options'] as { optionId: string; kind: string }[]) ?? []);
    return optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } };
  });
  client.on('fs/read_text_file', (p) => {
    const text = readFileSync(String(p['path']), 'utf8');
    const line = typeof p['line'] === 'number' ? p['line'] : 1;
    const limit = typeof p['limit'] === 'number' ? p['limit'] : undefined;
    if (line === 1 && limit === undefined) return { content: text };
    const lines = text.split('\n').slice(line - 1, limit === undefined ? undefined : line - 1 + limit);
    return { content: lines.join('\n') };
  });
  client.on('fs/write_text_file', async (p) => {
    await mkdir(dirname(String(p['path'])), { recursive: true });
    await writeFile(String(p['path']), String(p['content']));
    return null;
  });
  client.on('terminal/create', (p) => client.terminals.create(p as never, projectDir, client.launch.env));
  client.on('terminal/output', (p) => client.terminals.output(String(p['terminalId'])));
  client.on('terminal/wait_for_exit', (p) => client.terminals.waitForExit(String(p['terminalId'])));
  client.on('terminal/kill', (p) => client.terminals.kill(String(p['terminalId'])));
  client.on('terminal/release', (p) => client.terminals.release(String(p['terminalId'])));
}

function describeCall(call: ClientCall): string {
  if (call.method !== 'session/request_permission') return call.error ? `${call.method} (error: ${call.error})` : call.method;
  const p = call.params as { toolCall?: { title?: string }; options?: { optionId: string; kind: string }[] };
  const chosen = (call.answer as { outcome?: { optionId?: string } } | undefined)?.outcome?.optionId;
  return `${p.toolCall?.title ?? '?'} [${(p.options ?? []).map((o) => `${o.optionId}:${o.kind}`).join(',')}] -> ${chosen}`;
}

async function waitFor(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return test();
}

async function runScenario(spec: AgentSpec, scenario: ScenarioName, server: ModelServer, args: SmokeArgs, agent: AgentResult): Promise<ScenarioResult> {
  const out = args.out;
  const projectDir = mkdtempSync(join(tmpdir(), `acp-real-project-${spec.id}-`));
  writeFileSync(join(projectDir, 'notes.txt'), `${DEFAULTS.oldText}\n`);
  const launch = spec.launch({ modelUrl: server.url, projectDir, extraEnv: args.extraEnv });
  const trafficLog = join(out, `${spec.id}-${scenario}.jsonl`);
  rmSync(trafficLog, { force: true });
  const client = new AcpClient(launch, trafficLog);
  installHandlers(client, projectDir);
  const result: ScenarioResult = { scenario, pass: false, detail: '', filesChanged: [], updates: {}, permissions: [], clientCalls: [], steps: '' };
  const before = snapshot(projectDir);
  const recordsStart = server.records.length;
  try {
    let t = Date.now();
    const init = await client.request<Record<string, unknown>>(
      'initialize',
      {
        protocolVersion: 1,
        clientCapabilities: capabilitiesFor(spec, args.strict),
        clientInfo: { name: 'acp-workbench-smoke', title: 'ACP Workbench smoke check', version: '0.1.0' },
      },
      90_000,
    );
    result.initializeMs = Date.now() - t;
    agent.initialize ??= { ok: true, protocolVersion: init['protocolVersion'], agentInfo: init['agentInfo'] };
    t = Date.now();
    const session = await client.request<{ sessionId: string }>('session/new', { cwd: projectDir, mcpServers: [] }, 90_000);
    result.sessionNewMs = Date.now() - t;
    agent.sessionNew ??= { ok: true };
    t = Date.now();
    const prompt = client.request<{ stopReason: string }>(
      'session/prompt',
      { sessionId: session.sessionId, prompt: [{ type: 'text', text: promptFor(scenario, projectDir) }] },
      240_000,
    );
    if (scenario === 'slow') {
      const streaming = await waitFor(() => agentText(client.updates).includes('word3'), 90_000);
      if (!streaming) result.error = 'no streamed text before cancelling';
      client.notify('session/cancel', { sessionId: session.sessionId });
      t = Date.now();
    }
    const response = await prompt;
    result.turnMs = Date.now() - t;
    result.stopReason = response.stopReason;
  } catch (error) {
    result.error = (error as Error).message;
    if (!result.initializeMs) agent.initialize ??= { ok: false, error: result.error };
    else if (!result.sessionNewMs) agent.sessionNew ??= { ok: false, error: result.error };
  }
  // Late tool output and tail updates settle before judging.
  await new Promise((r) => setTimeout(r, 300));
  const after = snapshot(projectDir);
  const records = server.records.slice(recordsStart);
  const verdict = judge({ scenario, stopReason: result.stopReason, updates: client.updates, filesBefore: before, filesAfter: after, records });
  Object.assign(result, {
    pass: verdict.pass && !result.error,
    detail: verdict.detail,
    filesChanged: changedFiles(before, after),
    updates: updateKinds(client.updates),
    permissions: client.calls.filter((c) => c.method === 'session/request_permission').map(describeCall),
    clientCalls: client.calls.filter((c) => c.method !== 'session/request_permission').map(describeCall),
    steps: stepsPlayed(records),
  });
  result.closedBy = await client.close();
  client.killGroup('SIGKILL');
  if (!result.pass) result.stderrTail = client.stderr.slice(-3000);
  if (client.nonJsonLines.length) result.error = `${result.error ?? ''} non-JSON stdout: ${client.nonJsonLines.slice(0, 3).join(' | ')}`.trim();
  launch.dispose();
  rmSync(projectDir, { recursive: true, force: true });
  return result;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  mkdirSync(args.out, { recursive: true });
  const logFile = join(args.out, 'model-requests.jsonl');
  rmSync(logFile, { force: true });
  const server = await startModelServer({ logFile });
  process.stdout.write(`model server ${server.url}; logs in ${args.out}\n`);
  const results: AgentResult[] = [];
  for (const spec of AGENTS) {
    if (args.agents && !args.agents.includes(spec.id)) continue;
    const agent: AgentResult = { agent: spec.id, pkg: spec.pkg, version: spec.version, installed: isInstalled(spec), scenarios: [] };
    results.push(agent);
    if (!agent.installed) {
      process.stdout.write(`${spec.id}: not installed (run npm ci in e2e/real-agents/agents)\n`);
      continue;
    }
    for (const scenario of args.scenarios) {
      const r = await runScenario(spec, scenario, server, args, agent);
      agent.scenarios.push(r);
      process.stdout.write(
        `${spec.id.padEnd(12)} ${scenario.padEnd(12)} ${r.pass ? 'PASS' : 'FAIL'}  stop=${r.stopReason ?? '-'} ` +
          `init=${r.initializeMs ?? '-'}ms new=${r.sessionNewMs ?? '-'}ms turn=${r.turnMs ?? '-'}ms  ${r.detail}` +
          `${r.error ? `  error: ${r.error}` : ''}\n`,
      );
    }
  }
  await server.close();
  writeFileSync(join(args.out, 'report.json'), `${JSON.stringify({ modelServerUnhandled: server.unhandled, results }, null, 2)}\n`);
  const passed = results.flatMap((a) => a.scenarios).filter((s) => s.pass).length;
  const total = results.flatMap((a) => a.scenarios).length;
  process.stdout.write(`\n${passed}/${total} scenario runs passed; report: ${join(args.out, 'report.json')}\n`);
  if (server.unhandled.length) process.stdout.write(`model server: unhandled requests: ${[...new Set(server.unhandled)].join(', ')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`smoke: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
