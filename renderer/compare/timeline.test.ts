import { describe, expect, it } from 'vitest';
import type { Entry } from '../../common/transcript/model';
import { axisTicks, buildLane, lanesOpen, percentAt, timelineRange } from './timeline';

const user = (id: string, t: number, turn: number, extra: object = {}) => ({ id, t, turn, kind: 'user_message', content: [], ...extra }) as Entry;
const text = (id: string, t: number, turn: number) => ({ id, t, turn, kind: 'agent_message', content: [] }) as Entry;
const end = (id: string, t: number, turn: number, stopReason: string | null, extra: object = {}) => ({ id, t, turn, kind: 'turn_end', stopReason, ...extra }) as Entry;
const tool = (id: string, t: number, turn: number, kind: string, permissions: object[] = []) =>
  ({ id, t, turn, kind: 'tool_call', toolCallId: `tc-${id}`, title: `Tool ${id}`, toolKind: kind, status: 'completed', content: [], locations: [], permissions }) as Entry;

describe('buildLane', () => {
  it('turns from prompt to turn end on the wall clock, with the first update, tools and permission waits', () => {
    const lane = buildLane(
      [
        { id: 'e0', t: 5, turn: 0, kind: 'available_commands', commands: [] } as Entry, // before any prompt: not a first update
        user('e1', 100, 1),
        tool('e2', 180, 1, 'read'),
        tool('e3', 250, 1, 'edit', [{ requestId: 1, t: 260, options: [], status: 'selected', decidedT: 900 }]),
        text('e4', 950, 1),
        end('e5', 1000, 1, 'end_turn'),
      ],
      10_000,
    );
    expect(lane.turns).toEqual([{ turn: 1, start: 10_100, firstUpdate: 10_180, end: 11_000, stopReason: 'end_turn', error: false }]);
    expect(lane.tools.map((t) => [t.at, t.kind])).toEqual([
      [10_180, 'read'],
      [10_250, 'edit'],
    ]);
    expect(lane.waits).toEqual([{ start: 10_260, end: 10_900 }]);
  });

  it('keeps a running turn and a pending permission open, marks a turn ended by an error', () => {
    const running = buildLane([user('e1', 0, 1), tool('e2', 10, 1, 'execute', [{ requestId: 'r', t: 20, options: [], status: 'pending' }])], 0);
    expect(running.turns[0]).toMatchObject({ end: null, firstUpdate: 10 });
    expect(running.waits).toEqual([{ start: 20, end: null }]);
    expect(lanesOpen([running])).toBe(true);

    const failed = buildLane([user('e1', 0, 1), end('e2', 50, 1, null, { error: { message: 'boom' } }), user('e3', 60, 2), text('e4', 70, 2), end('e5', 80, 2, 'cancelled')], 0);
    expect(failed.turns.map((t) => [t.turn, t.firstUpdate, t.end, t.stopReason, t.error])).toEqual([
      [1, null, 50, null, true],
      [2, 70, 80, 'cancelled', false],
    ]);
    expect(lanesOpen([failed])).toBe(false);
  });

  it('ignores replayed history', () => {
    const lane = buildLane([user('e1', 1, 0, { flags: ['replayed'] }), text('e2', 2, 0)], 0);
    expect(lane.turns).toEqual([]);
  });
});

describe('range and axis', () => {
  it('spans the earliest prompt to the latest end, following now while open', () => {
    const a = buildLane([user('e1', 0, 1), end('e2', 3000, 1, 'end_turn')], 1000);
    const b = buildLane([user('e1', 0, 1)], 1200);
    expect(timelineRange([a], 99_999)).toEqual({ start: 1000, end: 4000 });
    expect(timelineRange([a, b], 9000)).toEqual({ start: 1000, end: 9000 });
    expect(timelineRange([], 1)).toBeNull();
    // At least one second wide.
    expect(timelineRange([buildLane([user('e1', 0, 1), end('e2', 10, 1, 'end_turn')], 0)], 0)).toEqual({ start: 0, end: 1000 });
  });

  it('positions in percent, clamped, and picks round ticks', () => {
    const range = { start: 1000, end: 3000 };
    expect(percentAt(range, 2000)).toBe(50);
    expect(percentAt(range, 0)).toBe(0);
    expect(percentAt(range, 9000)).toBe(100);
    expect(axisTicks({ start: 0, end: 3000 })).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
    expect(axisTicks({ start: 0, end: 65_000 })).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  });
});
