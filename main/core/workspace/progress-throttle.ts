/**
 * Reports of a compare run's creation, thinned for whoever shows them: each new step, agent or
 * count of agents started at once; a copy's running count of files at most every `intervalMs` (a
 * folder of 50,000 files is not 50,000 events or terminal redraws).
 */
import type { RunCreateProgress } from '../../../common/api/compare-types';

export type CreateProgress = Omit<RunCreateProgress, 'startId'>;

export function throttledProgress(report: (p: CreateProgress) => void, intervalMs = 100, now: () => number = Date.now): (p: CreateProgress) => void {
  let lastKey = '';
  let lastAt = -Infinity;
  return (p) => {
    const key = `${p.step} ${p.agent ?? ''} ${p.started ?? ''}`;
    const at = now();
    if (key === lastKey && at - lastAt < intervalMs) return;
    lastKey = key;
    lastAt = at;
    report(p);
  };
}
