/**
 * `run --json`'s lines: one JSON object per event (docs/cli.md). An `update` event whose agent
 * line is at hand takes the update's bytes from that line when they are exactly what
 * JSON.stringify would print (canonical-update.ts), so the update — often a 16 KiB diff — is
 * neither serialized again nor encoded to UTF-8 again; the line is byte for byte the same.
 */
import { canonicalUpdateSpan } from './canonical-update';
import type { OutputFlow } from './output-flow';
import type { AgentRef, CompareEvent, RunEvent } from './run-events';

const LINE_END = Buffer.from('}\n');

export class JsonEvents {
  /** `{"type":"update","agent":…,"update":` per agent ref (refs are not changed once made). */
  private readonly prefixes = new WeakMap<AgentRef, Buffer>();

  constructor(private readonly output: Pick<OutputFlow, 'text' | 'bytes'>) {}

  /** `line`: with an `update` event, the agent's `session/update` line it came from (UTF-8 JSON). */
  write(event: RunEvent | CompareEvent, line?: Buffer): void {
    if (event.type === 'update' && line) {
      const span = canonicalUpdateSpan(line);
      if (span) {
        this.output.bytes(this.prefix(event.agent));
        this.output.bytes(line.subarray(span[0], span[1]));
        this.output.bytes(LINE_END);
        return;
      }
    }
    this.output.text(`${JSON.stringify(event)}\n`);
  }

  private prefix(agent: AgentRef): Buffer {
    let prefix = this.prefixes.get(agent);
    if (!prefix) {
      // The key order of the event object run-agent.ts makes: type, agent, update.
      prefix = Buffer.from(`{"type":"update","agent":${JSON.stringify(agent)},"update":`);
      this.prefixes.set(agent, prefix);
    }
    return prefix;
  }
}
