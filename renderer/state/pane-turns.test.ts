import { describe, expect, it } from 'vitest';
import { PACED_FROM, RECENT_FRAMES, createPaneTurns } from './pane-turns';

/** Runs `frames` frames with every session of `sessions` queued in each; which applied in each frame. */
function run(sessions: string[], frames: number, turns = createPaneTurns()) {
  const log: string[][] = [];
  for (let f = 0; f < frames; f++) {
    const due = turns.due(sessions);
    const applied = sessions.filter((id) => !due || due.has(id));
    for (const id of applied) turns.applied(id);
    log.push(applied);
  }
  return log;
}

describe('panes taking turns while several stream', () => {
  it('applies every session in every frame while fewer than PACED_FROM stream', () => {
    const sessions = ['a', 'b', 'c', 'd'].slice(0, PACED_FROM - 1);
    for (const applied of run(sessions, 6)) expect(applied).toEqual(sessions);
  });

  it('applies each of PACED_FROM or more every second frame, half of them in each frame', () => {
    const log = run(['d', 'b', 'a', 'c'], 8);
    for (const applied of log) expect(applied).toHaveLength(2);
    for (const id of ['a', 'b', 'c', 'd']) {
      const frames = log.map((applied, f) => (applied.includes(id) ? f : -1)).filter((f) => f >= 0);
      expect(frames).toHaveLength(4);
      for (let i = 1; i < frames.length; i++) expect(frames[i]! - frames[i - 1]!).toBe(2);
    }
    expect(log[0]).not.toEqual(log[1]);
  });

  it('never holds a session back two frames running', () => {
    const turns = createPaneTurns();
    const sessions = ['a', 'b', 'c'];
    let waited = new Map<string, number>();
    for (let f = 0; f < 20; f++) {
      // Sessions queue in some frames only.
      const queued = sessions.filter((_, i) => (f + i) % 3 !== 0);
      const due = turns.due(queued);
      const next = new Map<string, number>();
      for (const id of queued) {
        if (!due || due.has(id)) turns.applied(id);
        else next.set(id, (waited.get(id) ?? 0) + 1);
      }
      for (const n of next.values()) expect(n).toBeLessThanOrEqual(1);
      waited = next;
    }
  });

  it('stops taking turns once the other streams have been quiet for RECENT_FRAMES frames', () => {
    const turns = createPaneTurns();
    run(['a', 'b', 'c'], 4, turns);
    for (let f = 0; f < RECENT_FRAMES; f++) turns.due(['a']);
    expect(turns.due(['a'])).toBeNull();
  });
});
