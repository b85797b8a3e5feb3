import { describe, expect, it } from 'vitest';
import { fileDiffs } from './file-diffs';
import type { Entry, FileChange, ToolCallEntry, Transcript } from './model';

function toolCall(id: string, status: string, diffs: Array<{ path: string; oldText?: string | null; newText: string }>, t: number): ToolCallEntry {
  return {
    id,
    kind: 'tool_call',
    t,
    turn: 1,
    toolCallId: `call-${id}`,
    title: `Edit ${diffs.map((d) => d.path).join(', ')}`,
    toolKind: 'edit',
    status,
    content: diffs.map((d) => ({ type: 'diff' as const, ...d })),
    locations: [],
    permissions: [],
  } as ToolCallEntry;
}

function transcriptOf(entries: Entry[], fileChanges: FileChange[] = []): Pick<Transcript, 'ids' | 'entries' | 'fileChanges'> {
  return { ids: entries.map((e) => e.id), entries: Object.fromEntries(entries.map((e) => [e.id, e])), fileChanges };
}

describe('one diff per file a session wrote', () => {
  it('folds a file’s writes (tool diffs and fs writes) from before the first to after the last, files in first-write order', () => {
    const writes: FileChange[] = [{ id: 'req:1', path: '/p/b.txt', oldText: null, newText: 'created\n', t: 2, turn: 1 }];
    const t = transcriptOf(
      [toolCall('e1', 'completed', [{ path: '/p/a.txt', oldText: 'one\n', newText: 'two\n' }], 1), toolCall('e2', 'completed', [{ path: '/p/a.txt', oldText: 'two\n', newText: 'three\n' }], 3)],
      writes,
    );
    expect(fileDiffs(t)).toEqual([
      { path: '/p/a.txt', oldText: 'one\n', newText: 'three\n', exact: true, writes: 2, failed: 0 },
      { path: '/p/b.txt', oldText: null, newText: 'created\n', exact: true, writes: 1, failed: 0 },
    ]);
  });

  it('leaves out tool calls that did not complete, and says when the text before the first write is not known', () => {
    const t = transcriptOf(
      [toolCall('e1', 'failed', [{ path: '/p/a.txt', oldText: 'x', newText: 'y' }], 1), toolCall('e2', 'in_progress', [{ path: '/p/c.txt', oldText: 'x', newText: 'y' }], 2)],
      [{ id: 'write:1', path: '/p/d.txt', newText: 'after', t: 3, turn: 1 }],
    );
    expect(fileDiffs(t)).toEqual([{ path: '/p/d.txt', oldText: '', newText: 'after', exact: false, writes: 1, failed: 0 }]);
  });

  it('counts a write our answer refused, and diffs only the ones that happened', () => {
    const t = transcriptOf([], [
      { id: 'req:1', path: '/p/a.txt', oldText: 'v0', newText: 'v1', t: 1, turn: 1 },
      { id: 'req:2', path: '/p/a.txt', oldText: 'v1', newText: 'never', t: 2, turn: 1, error: 'EACCES' },
    ]);
    expect(fileDiffs(t)).toEqual([{ path: '/p/a.txt', oldText: 'v0', newText: 'v1', exact: true, writes: 2, failed: 1 }]);
  });

  it('is empty for a session that wrote nothing', () => {
    expect(fileDiffs(transcriptOf([]))).toEqual([]);
  });
});
