import { useSecondsSince } from '../app/start-wait';

/** Past this many seconds a turn shows how long it has taken (a quick turn does not flicker a figure). */
const SHOWN_AFTER_S = 3;

/**
 * How long the pane's turn has been going ("42 s", "3 min 05 s"), counted from when this window saw
 * it start, while the agent works or waits for the user: a long turn is told apart from a stuck one.
 */
export function TurnTimer({ active }: { active: boolean }) {
  const seconds = useSecondsSince(active);
  if (!active || seconds < SHOWN_AFTER_S) return null;
  return (
    <span className="pane-turn-time muted" data-testid="pane-turn-time" data-seconds={seconds} title="How long this turn has taken so far">
      {turnTime(seconds)}
    </span>
  );
}

export function turnTime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${String(seconds % 60).padStart(2, '0')} s`;
}
