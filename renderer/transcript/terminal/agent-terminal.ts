/**
 * Agent-rendered terminals (acp-reference §16): claude-agent-acp and codex-acp run commands
 * themselves and put the output in the tool call's `_meta`: `terminal_output {terminal_id, data}`
 * (Zed's convention) or `terminal_output_delta {terminal_id, data}` — both carry a chunk to append
 * (Zed writes `terminal_output` chunks into its terminal emulator) — and `terminal_exit
 * {terminal_id, exit_code, signal}`. Keys are snake_case. Pure: no DOM, tested in Node.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../../common/trace/json';

export interface AgentTerminalMeta {
  /** Output to append (`terminal_output` and `terminal_output_delta`, in that order). */
  chunks: string[];
  exit?: { exitCode: number | null; signal: string | null };
  /** `terminal_info` named this terminal. */
  known: boolean;
}

function forTerminal(value: JsonValue | undefined, terminalId: string): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const id = value.terminal_id ?? value.terminalId;
  return id === undefined || id === terminalId ? value : undefined;
}

export function agentTerminalMeta(meta: JsonObject | undefined, terminalId: string): AgentTerminalMeta | null {
  if (!meta) return null;
  const info = forTerminal(meta.terminal_info, terminalId);
  const out = forTerminal(meta.terminal_output, terminalId);
  const delta = forTerminal(meta.terminal_output_delta, terminalId);
  const exit = forTerminal(meta.terminal_exit, terminalId);
  if (!info && !out && !delta && !exit) return null;
  const r: AgentTerminalMeta = { known: info !== undefined, chunks: [] };
  if (out && typeof out.data === 'string') r.chunks.push(out.data);
  if (delta && typeof delta.data === 'string') r.chunks.push(delta.data);
  if (exit) {
    const code = exit.exit_code ?? exit.exitCode;
    const signal = exit.signal;
    r.exit = { exitCode: typeof code === 'number' ? code : null, signal: typeof signal === 'string' ? signal : null };
  }
  return r;
}

/**
 * Accumulates what successive metas of one tool call say about one terminal. The store keeps only
 * the latest `_meta` of a tool call, so deltas are folded here as each new meta object is seen.
 */
export class AgentTerminalBuffer {
  private lastMeta: JsonObject | undefined;
  text = '';
  exit: AgentTerminalMeta['exit'];

  constructor(
    private readonly terminalId: string,
    private readonly maxChars = 1_000_000,
  ) {}

  /** Feeds the tool call's current meta; returns whether the text or exit changed. */
  update(meta: JsonObject | undefined): boolean {
    if (meta === this.lastMeta) return false;
    this.lastMeta = meta;
    const m = agentTerminalMeta(meta, this.terminalId);
    if (!m) return false;
    let changed = false;
    for (const chunk of m.chunks) {
      if (!chunk) continue;
      this.text += chunk;
      changed = true;
    }
    if (this.text.length > this.maxChars) this.text = this.text.slice(this.text.length - this.maxChars);
    if (m.exit && (m.exit.exitCode !== this.exit?.exitCode || m.exit.signal !== this.exit?.signal)) {
      this.exit = m.exit;
      changed = true;
    }
    return changed;
  }
}
