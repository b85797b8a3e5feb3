import { describe, expect, it } from 'vitest';
import { AgentTerminalBuffer, agentTerminalMeta } from './agent-terminal';

describe('agent-rendered terminals', () => {
  it('reads terminal_output / _delta / _exit for the right terminal id', () => {
    expect(agentTerminalMeta({ terminal_output_delta: { terminal_id: 't1', data: 'x' } }, 't1')).toEqual({ known: false, chunks: ['x'] });
    expect(agentTerminalMeta({ terminal_output_delta: { terminal_id: 't2', data: 'x' } }, 't1')).toBeNull();
    expect(agentTerminalMeta({ terminal_exit: { terminal_id: 't1', exit_code: 2, signal: null } }, 't1')).toEqual({ known: false, chunks: [], exit: { exitCode: 2, signal: null } });
    expect(agentTerminalMeta(undefined, 't1')).toBeNull();
  });

  it('accumulates chunks once per meta object', () => {
    const buf = new AgentTerminalBuffer('t1');
    const m1 = { terminal_info: { terminal_id: 't1' } };
    const m2 = { terminal_output_delta: { terminal_id: 't1', data: 'a\n' } };
    const m3 = { terminal_output: { terminal_id: 't1', data: 'b\n' } };
    expect(buf.update(m1)).toBe(false);
    expect(buf.update(m2)).toBe(true);
    expect(buf.update(m2)).toBe(false); // same object seen again (re-render): not appended twice
    expect(buf.update(m3)).toBe(true);
    expect(buf.update({ terminal_exit: { terminal_id: 't1', exit_code: 0 } })).toBe(true);
    expect(buf.text).toBe('a\nb\n');
    expect(buf.exit).toEqual({ exitCode: 0, signal: null });
  });
});
