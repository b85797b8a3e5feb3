/**
 * The readable lines of `run --isolate`'s own events: the run and its workspaces (stderr, like
 * other progress), and the comparison at the end (stdout: it is the result).
 */
import { counted } from '../../../common/text/counted';
import type { CliIo } from '../command';
import type { CompareEvent } from './run-events';

const ms = (v: number | null) => (v === null ? '—' : `${(v / 1000).toFixed(2)} s`);

export function printCompareEvent(io: CliIo, e: CompareEvent): void {
  switch (e.type) {
    case 'run':
      io.stderr(`[run] ${e.runId}: ${e.isolation === 'worktree' ? `git worktrees of a snapshot of ${e.root}${e.branch ? ` (${e.branch})` : ''}` : `copies of ${e.root}`} in ${e.workspaces}\n`);
      for (const w of e.warnings) io.stderr(`[run] warning: ${w}\n`);
      return;
    case 'workspace':
      io.stderr(`[${e.agent.label}] workspace ${e.cwd}\n`);
      return;
    case 'setup':
      io.stderr(`[${e.agent.label}] setup: ${e.timedOut ? 'killed after the time limit' : e.exitCode === null ? `killed by ${e.signal}` : `exit ${e.exitCode}`} (${ms(e.durationMs)})\n`);
      if (e.exitCode !== 0) for (const l of e.output.trimEnd().split('\n').slice(-20)) io.stderr(`[${e.agent.label}]   ${l}\n`);
      return;
    case 'comparison': {
      io.stdout(`== comparison of run ${e.runId}\n`);
      for (const a of e.agents) {
        const files = a.filesChanged.length;
        const verify = a.verify ? `, verify ${a.verify.timedOut ? 'timed out' : `exit ${a.verify.exitCode ?? a.verify.signal}`}` : '';
        io.stdout(
          `${a.index} ${a.label}: ${a.error ? 'FAILED' : `stop ${a.stopReason ?? 'none'}`}, ${ms(a.durationMs)}, ${counted(a.toolCalls, 'tool call')}, ${counted(a.permissionRequests, 'permission request')}, ${counted(files, 'file')} +${a.linesAdded} −${a.linesRemoved}${verify}\n`,
        );
        for (const f of a.filesChanged) io.stdout(`    ${f.status} ${f.path}${f.binary ? ' (binary)' : ` +${f.added} −${f.removed}`}\n`);
      }
      for (const d of e.divergentFiles) io.stdout(`changed differently: ${d.path} (${d.agents.map((x) => e.agents[x.index]?.label ?? x.index).join(', ')})\n`);
      io.stderr(`[run] see it with: acp-workbench runs show ${e.runId}; apply one agent's changes: acp-workbench runs promote ${e.runId} INDEX; remove the workspaces: acp-workbench runs discard ${e.runId}\n`);
      return;
    }
  }
}
