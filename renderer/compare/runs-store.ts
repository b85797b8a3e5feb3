/**
 * The renderer's view of compare runs: the runs list (history), leftovers offered for cleanup at
 * start-up, the run whose timeline is shown above the panes, the run whose comparison is open,
 * and the New compare run dialog. Fed by `runs/changed` and `run/updated`.
 */
import { create } from 'zustand';
import type { RunRecipeView, RunSummary } from '../../common/api/compare-types';
import type { WorkbenchApi } from '../../common/api/client';
import { api } from '../api/api-context';
import { MAX_PANES, useLayout } from '../state/layout-store';

export interface RunsStore {
  runs: Record<string, RunSummary>;
  /** Newest first. */
  order: string[];
  leftovers: RunSummary[];
  /** The user answered the leftovers banner (Keep or Discard all). */
  leftoversAnswered: boolean;
  /** The run whose shared timeline is shown above the panes. */
  activeRunId: string | null;
  /** The run whose comparison view is open. */
  comparisonRunId: string | null;
  newRunOpen: boolean;
  /** What the New compare run dialog starts from; null: the last form used. */
  newRunFrom: NewRunStart | null;
}

/** A new run filled from an earlier run ("Run again") or from a session ("Compare across agents"). */
export interface NewRunStart {
  kind: 'again' | 'session';
  recipe: RunRecipeView;
}

export const useRuns = create<RunsStore>(() => ({
  runs: {},
  order: [],
  leftovers: [],
  leftoversAnswered: false,
  activeRunId: null,
  comparisonRunId: null,
  newRunOpen: false,
  newRunFrom: null,
}));

function setList(list: RunSummary[]): void {
  const runs: Record<string, RunSummary> = {};
  for (const r of list) runs[r.runId] = r;
  useRuns.setState({ runs, order: list.map((r) => r.runId) });
}

function upsert(run: RunSummary): void {
  const s = useRuns.getState();
  const order = s.order.includes(run.runId) ? s.order : [run.runId, ...s.order];
  useRuns.setState({
    runs: { ...s.runs, [run.runId]: run },
    order,
    // A leftover discarded (here or elsewhere) is no longer one.
    leftovers: s.leftovers.filter((l) => l.runId !== run.runId || (run.status !== 'discarded' && run.status !== 'promoted' && run.workspaces)),
  });
}

/** Core events → store; loads the list and the leftovers. Returns the function that disconnects. */
export function connectRunsStore(api: WorkbenchApi): () => void {
  const offs = [api.on('runs/changed', setList), api.on('run/updated', upsert)];
  void api.request('runs/list').then(setList, () => undefined);
  void api.request('runs/leftovers').then((leftovers) => useRuns.setState({ leftovers }), () => undefined);
  return () => offs.forEach((off) => off());
}

export const runs = {
  openNewRun(open = true, from: NewRunStart | null = null): void {
    useRuns.setState({ newRunOpen: open, newRunFrom: open ? from : null });
  },
  /** "Run again": the New compare run dialog filled from this run (the comparison gives way to it). */
  async runAgain(runId: string): Promise<void> {
    const recipe = await api().request('runs/recipe', { runId });
    useRuns.setState({ comparisonRunId: null, newRunOpen: true, newRunFrom: { kind: 'again', recipe } });
  },
  openComparison(runId: string | null): void {
    useRuns.setState({ comparisonRunId: runId });
  },
  setActive(runId: string | null): void {
    useRuns.setState({ activeRunId: runId });
  },
  remember(run: RunSummary): void {
    upsert(run);
  },
  /** Make a run of an earlier workbench live again (its agents' sessions resumed); no longer a leftover. */
  async reopen(runId: string): Promise<RunSummary> {
    const run = await api().request('runs/reopen', { runId });
    upsert(run);
    useRuns.setState((s) => ({ leftovers: s.leftovers.filter((l) => l.runId !== runId) }));
    return run;
  },
  answerLeftovers(): void {
    useRuns.setState({ leftoversAnswered: true });
  },
  /** Show the run's live sessions as the panes (replacing the visible ones) with its timeline above. */
  showPanes(run: RunSummary, focus?: string): void {
    const ids = run.agents.map((a) => a.sessionId).filter((id): id is string => Boolean(id)).slice(0, MAX_PANES);
    if (ids.length) useLayout.setState({ panes: ids, focused: focus && ids.includes(focus) ? focus : ids[0]!, selected: [] });
    useRuns.setState({ activeRunId: run.runId });
  },
};
