/**
 * What a dialog that starts something slow (an agent, a compare run) needs: a name for each start so
 * the core can stop it (`sessions/abort-start`, `runs/abort-create`), which start's outcome still
 * counts, and how long it has waited.
 */
import { useEffect, useState } from 'react';

/** A name for one start, unique in this window (the core refuses two under way with one name). */
export function newStartId(): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `start-${random}`;
}

/**
 * The start under way, if any. A start the user stopped, or one a newer start replaced, ends without
 * its outcome being shown: the dialog is closed, or shows the newer one.
 */
export class StoppableStart {
  private current: string | null = null;

  constructor(
    private readonly abort: (startId: string) => void,
    private readonly newId: () => string = newStartId,
  ) {}

  /** Names a new start, which is now the one under way. */
  begin(): string {
    this.current = this.newId();
    return this.current;
  }

  /** True when `startId` is still the start under way — it ends now, and its outcome is to be shown. */
  finish(startId: string): boolean {
    if (this.current !== startId) return false;
    this.current = null;
    return true;
  }

  /** Asks the core to stop the start under way; true when there was one. */
  stop(): boolean {
    const startId = this.current;
    this.current = null;
    if (startId === null) return false;
    this.abort(startId);
    return true;
  }
}

/** One StoppableStart for the life of a component. */
export function useStoppableStart(abort: (startId: string) => void): StoppableStart {
  const [start] = useState(() => new StoppableStart(abort));
  return start;
}

/** Whole seconds since `running` became true (0 while it is false), updated each second. */
export function useSecondsSince(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    setSeconds(0);
    if (!running) return;
    const from = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - from) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return seconds;
}
