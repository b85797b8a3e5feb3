import { describe, expect, it } from 'vitest';
import { unadvertisedUpdateCapability } from './gates';

describe('unadvertisedUpdateCapability', () => {
  it('names the capability a gated update kind needs until it is advertised', () => {
    const gated: Array<[string, Record<string, unknown>, string]> = [
      ['plan_update', { plan: true }, 'clientCapabilities.plan'],
      ['plan_removed', { plan: {} }, 'clientCapabilities.plan'],
      ['notice', { session: { notices: true } }, 'clientCapabilities.session.notices'],
      ['compaction_update', { session: { compaction: true } }, 'clientCapabilities.session.compaction'],
      ['compaction_summary_chunk', { session: { compaction: true } }, 'clientCapabilities.session.compaction'],
      ['subagent_update', { subagents: true }, 'clientCapabilities.subagents'],
      ['session_message', { subagents: true }, 'clientCapabilities.subagents'],
      ['session_message_chunk', { subagents: true }, 'clientCapabilities.subagents'],
    ];
    for (const [kind, advertised, capability] of gated) {
      expect(unadvertisedUpdateCapability(kind, {}), kind).toBe(capability);
      expect(unadvertisedUpdateCapability(kind, advertised), kind).toBeUndefined();
    }
  });

  it('lets every other kind through, including names an object would answer for', () => {
    for (const kind of ['agent_message_chunk', 'tool_call', 'tool_call_update', 'plan', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '']) {
      expect(unadvertisedUpdateCapability(kind, {}), kind).toBeUndefined();
    }
  });
});
