/**
 * The shared timeline of a compare run: per agent a lane built from its session's transcript
 * entries (each entry's `t` is ms since its connection started; `startedAt` puts lanes on one
 * wall clock): turns (prompt → turn end), time to the first update, tool calls, permission waits
 * and each turn's end with its stop reason. Pure, so it is tested without a DOM.
 */
import type { Entry, ToolCallEntry, TurnEndEntry } from '../../common/transcript/model';

export interface LaneTurn {
  turn: number;
  /** Wall-clock ms when the prompt was sent. */
  start: number;
  /** When the first update of the turn arrived; null while waiting. */
  firstUpdate: number | null;
  /** When the turn ended; null while it runs. */
  end: number | null;
  stopReason: string | null;
  error: boolean;
}

export interface LaneTool {
  id: string;
  at: number;
  kind: string;
  title: string;
  status: string;
}

export interface LaneWait {
  start: number;
  /** null while the request is still waiting. */
  end: number | null;
}

export interface Lane {
  turns: LaneTurn[];
  tools: LaneTool[];
  waits: LaneWait[];
}

const UPDATE_KINDS = new Set<Entry['kind']>(['agent_message', 'thought', 'tool_call', 'plan', 'usage', 'mode_change', 'config_change', 'session_info', 'available_commands', 'unknown_update']);

/** One agent's lane from its transcript entries, in order. */
export function buildLane(entries: readonly Entry[], startedAt: number): Lane {
  const lane: Lane = { turns: [], tools: [], waits: [] };
  let open: LaneTurn | null = null;
  for (const e of entries) {
    const at = startedAt + e.t;
    if (e.kind === 'user_message') {
      if (e.flags?.includes('replayed')) continue;
      // A prompt while a turn is open (queued) starts after it: keep the first one's start.
      if (open && open.end === null) continue;
      open = { turn: e.turn, start: at, firstUpdate: null, end: null, stopReason: null, error: false };
      lane.turns.push(open);
    } else if (e.kind === 'turn_end') {
      const end = e as TurnEndEntry;
      if (!open || open.end !== null) continue;
      open.end = Math.max(open.start, at);
      open.stopReason = end.stopReason;
      open.error = Boolean(end.error) || end.stopReason === null;
    } else {
      if (open && open.end === null && open.firstUpdate === null && UPDATE_KINDS.has(e.kind) && !e.flags?.includes('replayed')) open.firstUpdate = Math.max(open.start, at);
      if (e.kind === 'tool_call') {
        const call = e as ToolCallEntry;
        lane.tools.push({ id: call.toolCallId, at, kind: call.toolKind || 'other', title: call.title, status: call.status });
        for (const p of call.permissions) lane.waits.push({ start: startedAt + p.t, end: p.decidedT !== undefined ? startedAt + p.decidedT : p.status === 'pending' ? null : startedAt + p.t });
      }
    }
  }
  return lane;
}

export interface TimelineRange {
  start: number;
  end: number;
}

/** From the earliest prompt to the latest end (now for anything still open); at least 1 s wide. */
export function timelineRange(lanes: readonly Lane[], now: number): TimelineRange | null {
  let start = Infinity;
  let end = -Infinity;
  for (const lane of lanes) {
    for (const t of lane.turns) {
      start = Math.min(start, t.start);
      end = Math.max(end, t.end ?? now);
    }
    for (const w of lane.waits) end = Math.max(end, w.end ?? now);
  }
  if (!Number.isFinite(start)) return null;
  return { start, end: Math.max(end, start + 1000) };
}

/** Position of a time in the range, in percent (clamped). */
export function percentAt(range: TimelineRange, at: number): number {
  const p = ((at - range.start) / (range.end - range.start)) * 100;
  return Math.max(0, Math.min(100, p));
}

/** Round tick steps (ms) so the axis shows 4–8 labels. */
export function axisTicks(range: TimelineRange): number[] {
  const span = range.end - range.start;
  const steps = [100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
  const step = steps.find((s) => span / s <= 8) ?? 3_600_000;
  const ticks: number[] = [];
  for (let t = 0; t <= span; t += step) ticks.push(t);
  return ticks;
}

/** Does any lane still run (then the timeline follows the clock)? */
export function lanesOpen(lanes: readonly Lane[]): boolean {
  return lanes.some((l) => l.turns.some((t) => t.end === null) || l.waits.some((w) => w.end === null));
}
