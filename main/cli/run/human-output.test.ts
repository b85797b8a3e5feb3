import { describe, expect, it } from 'vitest';
import type { CliIo } from '../command';
import { HumanOutput } from './human-output';
import type { RunSummary } from './run-events';

function capture(): { io: CliIo; err: string[] } {
  const err: string[] = [];
  const io = { stdout: () => undefined, stderr: (s: string) => void err.push(s) } as unknown as CliIo;
  return { io, err };
}

const summary = (over: Partial<RunSummary>): RunSummary => ({
  type: 'summary',
  agent: { index: 0, label: 'demo' },
  id: 's1',
  agentSessionId: 'a1',
  stopReason: 'end_turn',
  error: null,
  updates: 1,
  toolCalls: 1,
  permissionRequests: 1,
  filesChanged: ['/p/a.txt'],
  firstUpdateMs: 5,
  durationMs: 1320,
  usage: null,
  trace: null,
  ...over,
});

describe('HumanOutput summary', () => {
  it('counts in the singular for exactly one and the plural otherwise', () => {
    const { io, err } = capture();
    const out = new HumanOutput(io, false);
    out.event(summary({}));
    out.event(summary({ updates: 31, toolCalls: 2, permissionRequests: 0, filesChanged: [] }));
    expect(err[0]).toBe('[demo] done: stop end_turn, 1 update, 1 tool call, 1 permission request, 1 file changed, 1.32 s\n');
    expect(err[1]).toBe('[demo]   changed /p/a.txt\n');
    expect(err[2]).toBe('[demo] done: stop end_turn, 31 updates, 2 tool calls, 0 permission requests, 0 files changed, 1.32 s\n');
  });

  it('says why a run failed, without the terminal controls an agent could send', () => {
    const { io, err } = capture();
    new HumanOutput(io, false).event(summary({ error: 'agent exited\u001b[2J with code 1', filesChanged: [] }));
    expect(err[0]).toMatch(/^\[demo\] FAILED: .* — agent exited\[2J with code 1\n$/);
  });
});
