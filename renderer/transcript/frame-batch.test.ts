import { describe, expect, it } from 'vitest';
import { createFrameBatch, type FrameJob } from './frame-batch';

function harness() {
  const frames: (() => void)[] = [];
  const log: string[] = [];
  let commits = 0;
  const batch = createFrameBatch(
    (run) => frames.push(run),
    (apply) => {
      commits++;
      log.push('commit{');
      apply();
      log.push('}');
    },
  );
  const job = (name: string): FrameJob => ({ read: () => log.push(`read ${name}`), apply: () => log.push(`apply ${name} ${batch.applying ? 'in batch' : 'outside'}`) });
  const frame = () => frames.shift()?.();
  return { batch, frames, log, job, frame, commits: () => commits };
}

describe('the frame batch', () => {
  it('runs every job scheduled before the frame in it: all reads first, then all applies inside one commit', () => {
    const h = harness();
    const a = h.job('a');
    const b = h.job('b');
    h.batch.schedule(a);
    h.batch.schedule(b);
    h.batch.schedule(a); // twice before the frame: once in it
    expect(h.frames).toHaveLength(1);
    expect(h.log).toEqual([]);
    h.frame();
    expect(h.log).toEqual(['read a', 'read b', 'commit{', 'apply a in batch', 'apply b in batch', '}']);
    expect(h.commits()).toBe(1);
    expect(h.batch.applying).toBe(false);
  });

  it('asks for a new frame for jobs scheduled after one ran, and drops cancelled jobs', () => {
    const h = harness();
    const a = h.job('a');
    const b = h.job('b');
    h.batch.schedule(a);
    h.frame();
    h.log.length = 0;
    h.batch.schedule(a);
    h.batch.schedule(b);
    h.batch.cancel(a);
    expect(h.frames).toHaveLength(1);
    h.frame();
    expect(h.log).toEqual(['read b', 'commit{', 'apply b in batch', '}']);
  });

  it('says when it defers (also nested), and stops saying so after the function, even when it throws', () => {
    const h = harness();
    const seen: boolean[] = [];
    h.batch.defer(() => {
      seen.push(h.batch.deferring);
      h.batch.defer(() => seen.push(h.batch.deferring));
      seen.push(h.batch.deferring);
    });
    seen.push(h.batch.deferring);
    expect(seen).toEqual([true, true, true, false]);
    expect(() => h.batch.defer(() => { throw new Error('boom'); })).toThrow('boom');
    expect(h.batch.deferring).toBe(false);
  });

  it('is no longer applying after a job throws', () => {
    const h = harness();
    h.batch.schedule({ read: () => undefined, apply: () => { throw new Error('boom'); } });
    expect(() => h.frame()).toThrow('boom');
    expect(h.batch.applying).toBe(false);
    h.batch.schedule(h.job('a'));
    expect(h.frames).toHaveLength(1);
  });
});
