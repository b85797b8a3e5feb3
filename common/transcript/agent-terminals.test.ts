import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../trace/records';
import { rebuildTranscript, TranscriptBuilder } from './rebuild';
import { applyPatches } from './apply-patches';
import { emptyTranscript } from './model';

let t = 0;
const update = (u: Record<string, unknown>): TraceRecord => ({
  kind: 'wire',
  t: t++,
  dir: 'in',
  msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } } as never,
});

const records: TraceRecord[] = [
  update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'npm test', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }], _meta: { terminal_info: { terminal_id: 'term-1', cwd: '/p' } } }),
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { terminal_id: 'term-1', data: 'line 1\n' } } }),
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output_delta: { terminal_id: 'term-1', data: '\u001b[32mok\u001b[0m\n' } } }),
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', _meta: { terminal_exit: { terminal_id: 'term-1', exit_code: 0, signal: null } } }),
];

describe('agent-rendered terminals (_meta)', () => {
  it('collect every output chunk and the exit in transcript.terminals', () => {
    const transcript = rebuildTranscript(records);
    expect(transcript.terminals['term-1']).toMatchObject({ status: 'exited', exitCode: 0, output: 'line 1\n\u001b[32mok\u001b[0m\n', cwd: '/p' });
  });

  it('give the same terminals when patches are applied one record at a time', () => {
    const builder = new TranscriptBuilder();
    let live = emptyTranscript();
    for (const r of records) live = applyPatches(live, builder.push(r));
    expect(live.terminals).toEqual(rebuildTranscript(records).terminals);
  });

  it('take a full terminal_output as the whole output so far', () => {
    const transcript = rebuildTranscript([
      records[0]!,
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', _meta: { terminal_output: { terminal_id: 'term-1', data: 'everything so far' } } }),
    ]);
    expect(transcript.terminals['term-1']?.output).toBe('everything so far');
  });
});
