import { useEffect, useReducer, useRef } from 'react';
import type { InspectorFilter } from '../../common/api/qa-types';
import { api } from '../api/api-context';
import { useConnected } from '../state/connection-store';
import { RowWindow } from './row-window';

/**
 * The rows of a session's inspector under a filter, as a RowWindow that re-renders its user on
 * every change and refreshes when the core says rows were appended.
 */
export function useRowWindow(sessionId: string, query: InspectorFilter): RowWindow {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const ref = useRef<RowWindow | null>(null);
  const fetcher = (offset: number, limit: number) => api().request('inspector/window', { sessionId, ...query, offset, limit });
  ref.current ??= new RowWindow(fetcher, bump);
  const key = JSON.stringify(query);
  useEffect(() => {
    ref.current!.reset(fetcher);
    // `fetcher` is made from sessionId and the query, which `key` stands for.
  }, [sessionId, key]);
  useEffect(
    () =>
      api().on('inspector/appended', (e) => {
        if (e.sessionId === sessionId) ref.current!.refresh();
      }),
    [sessionId],
  );
  // Rows appended while the window was disconnected were announced to no one: look again.
  const connected = useConnected();
  const wasConnected = useRef(connected);
  useEffect(() => {
    if (connected && !wasConnected.current) ref.current!.refresh();
    wasConnected.current = connected;
  }, [connected]);
  return ref.current;
}
