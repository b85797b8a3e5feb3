import { describe, expect, it } from 'vitest';
import { throttledProgress, type CreateProgress } from './progress-throttle';

describe('a run creation’s progress, thinned', () => {
  it('passes each new step, agent and start count at once, and a copy’s counts at most every interval', () => {
    let t = 0;
    const seen: CreateProgress[] = [];
    const report = throttledProgress((p) => seen.push(p), 100, () => t);
    report({ step: 'snapshot', of: 2 });
    for (let files = 0; files < 50; files++) {
      report({ step: 'workspace', agent: 1, of: 2, files, bytes: files * 10 });
      t += 10;
    }
    report({ step: 'workspace', agent: 2, of: 2, files: 0, bytes: 0 });
    report({ step: 'start', of: 2, started: 0 });
    report({ step: 'start', of: 2, started: 1 });
    report({ step: 'start', of: 2, started: 2 });
    expect(seen.map((p) => [p.step, p.agent ?? p.started, p.files])).toEqual([
      ['snapshot', undefined, undefined],
      ['workspace', 1, 0],
      ['workspace', 1, 10],
      ['workspace', 1, 20],
      ['workspace', 1, 30],
      ['workspace', 1, 40],
      ['workspace', 2, 0],
      ['start', 0, undefined],
      ['start', 1, undefined],
      ['start', 2, undefined],
    ]);
  });
});
