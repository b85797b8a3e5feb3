import { describe, expect, it } from 'vitest';
import { isRunningStatus, turnIsOver, unsettledTitle } from './tool-call-settled';

describe('tool calls that outlive their turn', () => {
  it('counts only pending and in-progress calls as running', () => {
    expect(isRunningStatus('pending')).toBe(true);
    expect(isRunningStatus('in_progress')).toBe(true);
    for (const s of ['completed', 'failed', 'cancelled', 'something-new']) expect(isRunningStatus(s)).toBe(false);
  });

  it('says a turn is over once it ended or a later one began, not while it runs', () => {
    expect(turnIsOver({ turn: 2, turnStatus: 'running' }, 2)).toBe(false);
    expect(turnIsOver({ turn: 2, turnStatus: 'cancelling' }, 2)).toBe(false);
    expect(turnIsOver({ turn: 2, turnStatus: 'idle' }, 2)).toBe(true);
    expect(turnIsOver({ turn: 3, turnStatus: 'running' }, 2)).toBe(true);
  });

  it('leaves calls made before any prompt alone until a first turn begins', () => {
    expect(turnIsOver({ turn: 0, turnStatus: 'idle' }, 0)).toBe(false);
    expect(turnIsOver({ turn: 1, turnStatus: 'running' }, 0)).toBe(true);
  });

  it('knows nothing without the session', () => {
    expect(turnIsOver(undefined, 1)).toBe(false);
  });

  it('names the status the agent left the call in', () => {
    expect(unsettledTitle('Running')).toContain('“Running”');
  });
});
