/**
 * What the window and a session pane select from the sessions store for their own elements. Each
 * returns a value that stays the same (`Object.is`; the pane list: element by element, through
 * `useShallow`) while the sessions only stream: the store's view objects are new on every frame
 * that applies patches, and selecting one re-rendered the whole window — sidebar, status bar, each
 * pane's header, transcript and composer — on every streamed frame (issue #11).
 */
import type { SessionsStore } from './sessions-store';

/** The panes whose session the store knows, in layout order. Use with `useShallow`. */
export const knownPanes = (panes: readonly string[]) => (s: SessionsStore) => panes.filter((id) => s.views[id] !== undefined);

export const paneExists = (sessionId: string) => (s: SessionsStore) => s.views[sessionId] !== undefined;

export const paneStatus = (sessionId: string) => (s: SessionsStore) => s.views[sessionId]?.summary.status.status;

/** A prompt sent from this window that the core has not answered with a status yet. */
export const paneSending = (sessionId: string) => (s: SessionsStore) => Boolean(s.views[sessionId]?.sending);

/** The agent's name as the pane's label says it. */
export const paneAgentName = (sessionId: string) => (s: SessionsStore) => {
  const agent = s.views[sessionId]?.summary.agent;
  return agent ? (agent.name ?? agent.label) : undefined;
};

export const paneLoadError = (sessionId: string) => (s: SessionsStore) => s.views[sessionId]?.loadError;
