/**
 * Terminals the agent runs itself and reports in a tool call's `_meta` (acp-reference §16:
 * claude-agent-acp, codex-acp): `terminal_info` opens one, `terminal_output` carries the output so
 * far, `terminal_output_delta` the next piece, `terminal_exit` the end. They land in
 * `transcript.terminals` beside the terminals we created, so the UI shows both the same way and a
 * reload or a rebuild from the trace keeps every chunk (the tool call's own `meta` keeps only the
 * latest).
 */
import { isJsonObject, str, type JsonObject } from '../trace/json';
import type { Step } from './step';

const idOf = (v: unknown) => (isJsonObject(v) ? (str(v, 'terminal_id') ?? str(v, 'terminalId')) : undefined);

export function onAgentTerminalMeta(step: Step, meta: JsonObject | undefined): void {
  if (!meta) return;
  const info = meta.terminal_info;
  const infoId = idOf(info);
  if (infoId !== undefined && !step.s.agentTerminals.has(infoId)) {
    step.s.agentTerminals = new Set(step.s.agentTerminals).add(infoId);
    step.emit({ op: 'upsert-terminal', terminalId: infoId, fields: { status: 'running', ...(isJsonObject(info) && typeof info.cwd === 'string' ? { cwd: info.cwd } : {}) } });
  }
  const full = meta.terminal_output;
  const fullId = idOf(full);
  if (fullId !== undefined && isJsonObject(full) && typeof full.data === 'string') {
    step.emit({ op: 'upsert-terminal', terminalId: fullId, fields: { output: full.data } });
  }
  const delta = meta.terminal_output_delta;
  const deltaId = idOf(delta);
  if (deltaId !== undefined && isJsonObject(delta) && typeof delta.data === 'string') {
    step.emit({ op: 'append-terminal-output', terminalId: deltaId, text: delta.data });
  }
  const exit = meta.terminal_exit;
  const exitId = idOf(exit);
  if (exitId !== undefined && isJsonObject(exit)) {
    const code = exit.exit_code ?? exit.exitCode;
    step.emit({
      op: 'upsert-terminal',
      terminalId: exitId,
      fields: { status: 'exited', exitCode: typeof code === 'number' ? code : null, signal: typeof exit.signal === 'string' ? exit.signal : null },
    });
  }
}
