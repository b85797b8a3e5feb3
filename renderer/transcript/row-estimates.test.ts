import { describe, expect, it } from 'vitest';
import { createRowEstimates } from './row-estimates';

const fallback = (kind: string | undefined) => (kind === 'agent_message' ? 56 : 28);

describe('row estimates', () => {
  it('guesses the fallback until a row of that kind was measured', () => {
    const e = createRowEstimates(fallback);
    expect(e.estimate('agent_message')).toBe(56);
    expect(e.estimate(undefined)).toBe(28);
  });

  it('learns the height rows of each kind have, separately per kind', () => {
    const e = createRowEstimates(fallback);
    e.learn('agent_message', 30);
    e.learn('agent_message', 30);
    e.learn('thought', 25);
    expect(e.estimate('agent_message')).toBe(30);
    expect(e.estimate('thought')).toBe(25);
    expect(e.estimate('tool_call')).toBe(28);
  });

  it('takes the rounded mean of mixed heights and ignores rows that were not laid out', () => {
    const e = createRowEstimates(fallback);
    e.learn('agent_message', 30);
    e.learn('agent_message', 0);
    e.learn('agent_message', 61);
    expect(e.estimate('agent_message')).toBe(46);
  });

  it('stops moving after enough samples, so a settled guess stays put', () => {
    const e = createRowEstimates(fallback);
    for (let i = 0; i < 500; i++) e.learn('thought', 25);
    e.learn('thought', 400);
    expect(e.estimate('thought')).toBe(25);
  });
});
