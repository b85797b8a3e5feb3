import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../trace/records';
import { allFileChanges, toolChangeId } from './file-changes';
import { rebuildTranscript } from './rebuild';

let t = 0;
const update = (u: Record<string, unknown>): TraceRecord => ({ kind: 'wire', t: t++, dir: 'in', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } } as never });

describe('allFileChanges', () => {
  it('adds the diffs of completed tool calls (agents that edit with their own tools) to the fs writes', () => {
    const transcript = rebuildTranscript([
      update({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit a.ts', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: '/p/a.ts', oldText: 'a\n', newText: 'b\n' }] }),
      update({ sessionUpdate: 'tool_call', toolCallId: 'edit-2', title: 'Edit b.ts', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: '/p/b.ts', oldText: null, newText: 'new\n' }] }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-2', status: 'failed' }),
    ]);
    expect(allFileChanges(transcript)).toEqual([
      expect.objectContaining({ id: toolChangeId('edit-1', '/p/a.ts'), path: '/p/a.ts', oldText: 'a\n', newText: 'b\n', toolCallId: 'edit-1' }),
    ]);
  });
});
