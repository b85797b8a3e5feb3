/**
 * The pane's stream pace (stream-pace.ts) for the rows it mounts: a tool card asks whether to mount
 * its body now or once the pane settles.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import type { StreamPace } from './stream-pace';

export const StreamPaceContext = createContext<StreamPace | null>(null);

/**
 * Whether a card shows its body: at once, unless it mounts while its pane follows a fast stream;
 * then from the moment the pane settles. Once shown it stays (a pane that gets fast again does not
 * take a body away from a card already on screen).
 */
export function useBodyShown(): boolean {
  const pace = useContext(StreamPaceContext);
  const [shown, setShown] = useState(() => !pace?.fast());
  useEffect(() => {
    if (shown || !pace) return;
    return pace.onSettled(() => setShown(true));
  }, [shown, pace]);
  return shown;
}
