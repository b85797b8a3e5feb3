/**
 * "Undo this file": the core puts a file back as it was before one agent write, refusing when the
 * file changed since (someone else's edit would be lost). A file written several times is undone
 * write by write, latest first, stopping at the first refusal. What was undone is remembered here
 * for the window (the transcript does not record it: the core adds a notice).
 */
import { create } from 'zustand';
import { api, errorText } from '../api/api-context';
import { undoPlan, type FileGroup } from '../../common/transcript/group-changes';

export type UndoResult =
  | { status: 'running' }
  | { status: 'done'; count: number }
  | { status: 'refused'; reason: string; count: number }
  | { status: 'error'; message: string; count: number };

interface UndoStore {
  /** Change ids undone, by session. */
  undone: Record<string, readonly string[]>;
  /** Last result by `${sessionId}\0${path}`. */
  results: Record<string, UndoResult>;
}

export const useUndo = create<UndoStore>(() => ({ undone: {}, results: {} }));

const EMPTY: readonly string[] = [];
export const useUndoneIds = (sessionId: string) => useUndo((s) => s.undone[sessionId] ?? EMPTY);
export const useUndoResult = (sessionId: string, path: string) => useUndo((s) => s.results[resultKey(sessionId, path)]);

function resultKey(sessionId: string, path: string): string {
  return `${sessionId}\0${path}`;
}

function setResult(sessionId: string, path: string, result: UndoResult): void {
  useUndo.setState((s) => ({ results: { ...s.results, [resultKey(sessionId, path)]: result } }));
}

function markUndone(sessionId: string, changeId: string): void {
  useUndo.setState((s) => ({ undone: { ...s.undone, [sessionId]: [...(s.undone[sessionId] ?? []), changeId] } }));
}

export async function undoFile(sessionId: string, group: FileGroup): Promise<UndoResult> {
  const current = useUndo.getState().results[resultKey(sessionId, group.path)];
  if (current?.status === 'running') return current;
  const plan = undoPlan(group, new Set(useUndo.getState().undone[sessionId] ?? []));
  setResult(sessionId, group.path, { status: 'running' });
  let count = 0;
  let result: UndoResult = { status: 'done', count };
  for (const change of plan) {
    try {
      const answer = await api().request('session/undo-change', { sessionId, changeId: change.id });
      if (!answer.undone) {
        result = { status: 'refused', reason: answer.reason ?? 'The core refused without a reason.', count };
        break;
      }
      markUndone(sessionId, change.id);
      count++;
      result = { status: 'done', count };
    } catch (err) {
      result = { status: 'error', message: errorText(err), count };
      break;
    }
  }
  setResult(sessionId, group.path, result);
  return result;
}

/** The line shown under the file after an undo. */
export function undoResultText(result: UndoResult, writes: number): string {
  const part = (count: number) => (count > 0 && writes > 1 ? `Undid ${count} of ${writes} writes, then stopped: ` : '');
  switch (result.status) {
    case 'running':
      return 'Undoing…';
    case 'done':
      return result.count === 0 ? 'Nothing to undo.' : writes > 1 ? `Undone (${result.count} writes): the file is back as it was.` : 'Undone: the file is back as it was.';
    case 'refused':
      return `${part(result.count)}Undo refused: ${result.reason}`;
    case 'error':
      return `${part(result.count)}Undo failed: ${result.message}`;
  }
}
