/** What a dialog that starts an agent needs to say how long it has waited and to stop the start. */
import { useEffect, useState } from 'react';

/** A name for one `sessions/start`, unique in this window (the core refuses two under way with one name). */
export function newStartId(): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `start-${random}`;
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
