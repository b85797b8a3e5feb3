import { useSessions } from '../state/sessions-store';

/**
 * Whether a recorded session is still running in this workbench (not crashed, not closed): its pane
 * is one click away, and "Resume" would start a second live copy of it.
 */
export function useRunningHere(sessionId: string): boolean {
  const status = useSessions((st) => st.views[sessionId]?.summary.status.status);
  return status !== undefined && status !== 'crashed' && status !== 'closed';
}
