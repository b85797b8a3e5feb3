/**
 * Closing the window or quitting stops every agent: one in the middle of a turn (working, or
 * waiting for the user's answer) would have its turn cut off. The shell asks first, naming them.
 */
import type { MessageBoxOptions } from 'electron';
import type { LiveSessionSummary } from '../../common/api/session-api-types';

export interface SessionLister {
  handle(name: string, params: unknown): Promise<unknown>;
}

/** The agents in the middle of a turn: by their label, and the agent's own name where it differs ("first (Claude Code)"). */
export async function workingAgents(core: SessionLister): Promise<string[]> {
  const live = (await core.handle('sessions/live', undefined)) as LiveSessionSummary[];
  return live
    .filter((s) => s.status.status === 'prompting' || s.status.status === 'waiting')
    .map(({ agent }) => (agent.name && agent.name !== agent.label ? `${agent.label} (${agent.name})` : agent.label));
}

/** Button 0 stops them; 1 (also Esc) keeps the window. */
export function stopQuestion(names: readonly string[]): MessageBoxOptions {
  const count = names.length === 1 ? 'An agent is' : `${names.length} agents are`;
  return {
    type: 'warning',
    buttons: ['Stop and quit', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    message: `${count} still working`,
    detail:
      names.length === 1
        ? `${names[0]}: quitting stops it and its turn ends as cancelled. What it did so far is recorded in History, from where its session can be resumed.`
        : `${names.join(', ')}: quitting stops them and their turns end as cancelled. What they did so far is recorded in History, from where their sessions can be resumed.`,
  };
}
