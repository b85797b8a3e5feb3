import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { createProgressText } from '../../../common/text/create-progress-text';
import { switchesFromSettings } from '../../core/agents/capability-switches';
import { throttledProgress } from '../../core/workspace/progress-throttle';
import { resolveAgentLaunch } from '../../core/agents/launch';
import { loadSettings } from '../../core/agents/settings';
import { PermissionBroker } from '../../core/sessions/permission-broker';
import { AlwaysMemory, standardPermissionChain } from '../../core/sessions/permission-policy';
import { PermissionQueue } from '../../core/sessions/permission-queue';
import type { AgentLaunch } from '../../core/sessions/start-session';
import type { CliCommand, CliIo } from '../command';
import { ExitCode } from '../exit-codes';
import { RunError } from '../../core/workspace/run-store';
import { printCompareEvent } from '../run/compare-output';
import { HumanOutput } from '../run/human-output';
import { JsonEvents } from '../run/json-events';
import { IsolatedRun } from '../run/isolated-run';
import { OutputFlow } from '../run/output-flow';
import { runOneAgent } from '../run/run-agent';
import type { CompareEvent, RunEvent } from '../run/run-events';
import { parseRunOptions, RUN_USAGE, type RunOptions } from '../run/run-options';
import { askOnTerminal } from '../run/tty-permissions';

async function resolveLaunches(opts: RunOptions, env: NodeJS.ProcessEnv): Promise<AgentLaunch[] | { error: string }> {
  const launches: AgentLaunch[] = [];
  for (const spec of opts.agents) {
    if (spec.kind === 'cmd') {
      launches.push({
        command: spec.command,
        args: spec.args,
        env: { ...env, ...opts.env },
        cwd: opts.cwd,
        label: spec.command.replace(/^.*[/\\]/, ''),
        agentId: spec.text,
        ...(Object.keys(opts.capabilities).length > 0 ? { switches: { ...opts.capabilities } } : {}),
      });
      continue;
    }
    try {
      const { launch, capabilities } = await resolveAgentLaunch({ agentId: spec.id, configDir: opts.paths.configDir, dataDir: opts.paths.dataDir, sessionCwd: opts.cwd, processEnv: env });
      launches.push({
        command: launch.command,
        args: launch.args,
        env: { ...launch.env, ...opts.env },
        cwd: launch.cwd,
        label: launch.agentId,
        agentId: launch.agentId,
        switches: { ...switchesFromSettings(capabilities, { canRunTerminalLogins: false }), ...opts.capabilities },
        ...(launch.secretEnvNames ? { secretEnvNames: launch.secretEnvNames } : {}),
      });
    } catch (err) {
      const e = err as Error & { fix?: string };
      return { error: `${e.message}${e.fix ? `\n${e.fix}` : ''}` };
    }
  }
  // Two agents with the same label get numbered, so events and prefixes stay distinct.
  const seen = new Map<string, number>();
  for (const l of launches) {
    const n = (seen.get(l.label) ?? 0) + 1;
    seen.set(l.label, n);
    if (n > 1) l.label = `${l.label}#${n}`;
  }
  return launches;
}

export const runCommand: CliCommand = {
  name: 'run',
  usage: RUN_USAGE,
  async run(argv, io) {
    const opts = parseRunOptions(argv, { env: io.env, cwd: io.cwd, readStdin: () => readFileSync(0, 'utf8') });
    opts.mcpServerSettings = (await loadSettings(opts.paths.configDir)).settings.mcpServers;
    if (!isAbsolute(opts.cwd)) throw new Error('cwd must be absolute');
    const launches = await resolveLaunches(opts, io.env);
    if ('error' in launches) {
      io.stderr(`acp-workbench run: ${launches.error}\n`);
      return ExitCode.agentStartFailed;
    }
    const interactive = opts.approve === 'ask' && io.interactive && !opts.json;
    const queue = new PermissionQueue();
    // One memory: what a person answers "always" is recorded in it and looked up from it.
    const memory = new AlwaysMemory();
    const broker = new PermissionBroker({ deciders: standardPermissionChain({ memory }), queue, memory });
    // Output streams: nothing of the transcript is kept for it. When stdout is full (a consumer
    // slower than the agents), the agents are not read until it drains (run-agent.ts). It is
    // batched: stderr flushes it first, so the two keep their order.
    const output = new OutputFlow(io);
    const out: CliIo = {
      ...io,
      stdout: (text) => void output.text(text),
      stderr: (text) => {
        output.flush();
        io.stderr(text);
      },
    };
    const human = new HumanOutput(out, launches.length > 1);
    const jsonEvents = new JsonEvents(output);
    const emit = (event: RunEvent | CompareEvent, line?: Buffer) =>
      opts.json ? jsonEvents.write(event, line) : isCompareEvent(event) ? printCompareEvent(out, event) : human.event(event);
    let isolated: IsolatedRun | undefined;
    if (opts.isolate) {
      // On a terminal, one stderr line says how far the workspaces are (a copy of a large folder
      // takes a while); it is cleared before anything else is printed.
      let drawn = false;
      const clearProgress = () => {
        if (drawn) out.stderr('\r\x1b[K');
        drawn = false;
      };
      const progress = io.stderrIsTerminal
        ? throttledProgress((p) => {
            out.stderr(`\r${createProgressText(p, launches.map((l) => l.label))}\x1b[K`);
            drawn = true;
          })
        : undefined;
      try {
        isolated = await IsolatedRun.prepare(
          opts,
          launches,
          io.env,
          (event) => {
            clearProgress();
            emit(event);
          },
          progress,
        );
        clearProgress();
      } catch (err) {
        clearProgress();
        output.flush();
        if (!(err instanceof RunError)) throw err;
        out.stderr(`acp-workbench run: ${err.message}\n`);
        return err.code === 'invalid' ? ExitCode.usage : ExitCode.agentStartFailed;
      }
    }
    const labels = new Map<string, string>();
    const asking = interactive ? askOnTerminal(queue, (id) => labels.get(id) ?? 'agent', out.stderr) : undefined;
    try {
      const results = await Promise.all(
        launches.map((launch, index) => {
          const ref = { index, label: launch.label };
          const runAgent = (l: AgentLaunch, o: RunOptions) =>
            runOneAgent(
              ref,
              l,
              o,
              broker,
              interactive,
              (e, line) => {
                if (e.type === 'session') labels.set(e.id, launch.label);
                emit(e, line);
              },
              { outputFull: () => output.full },
            );
          return isolated ? isolated.runAgent(ref, launch, runAgent) : runAgent(launch, opts);
        }),
      );
      for (const r of results) emit(r.summary);
      await isolated?.finish();
      return results.reduce<ExitCode>((worst, r) => (r.exitCode > worst ? r.exitCode : worst), ExitCode.ok);
    } finally {
      asking?.dispose();
      output.flush();
    }
  },
};

const COMPARE_EVENTS = new Set(['run', 'workspace', 'setup', 'comparison']);
const isCompareEvent = (e: RunEvent | CompareEvent): e is CompareEvent => COMPARE_EVENTS.has(e.type);
