/**
 * "Compare across agents" from a session: a new compare run in the session's folder with its last
 * prompt (text and attachments), its agent first and a second one to choose — the natural next step
 * after "how would another agent do this?".
 */
import type { RunRecipeView } from '../../common/api/compare-types';
import { splitShellWords } from '../../common/text/shell-words';
import type { ContentBlock } from '../../common/transcript/acp-types';
import type { SessionView } from '../state/sessions-store';

/** An ad-hoc agent's id is its command line (session-manager); a catalog id is a slug. */
const isCommandLine = (agentId: string) => /[\s/\\]/.test(agentId);

/** The session's last prompt as it was sent (the loaded entries only: a long transcript's end is loaded first). */
function lastPrompt(view: SessionView): ContentBlock[] {
  const t = view.transcript;
  for (let i = t.ids.length - 1; i >= 0; i--) {
    const entry = t.entries[t.ids[i]!];
    if (entry?.kind === 'user_message') return entry.content;
  }
  return [];
}

export function recipeFromSession(view: SessionView): RunRecipeView {
  return compareRecipe(view.summary.cwd, view.summary.agent.agentId, lastPrompt(view));
}

/** The new run's params: the folder, the session's agent (a catalog id or a command line) and a second to choose, the prompt. */
export function compareRecipe(cwd: string | undefined, agentId: string | undefined, prompt: ContentBlock[]): RunRecipeView {
  const words = agentId && isCommandLine(agentId) ? splitShellWords(agentId) : [];
  const first = words.length ? { command: words[0]!, args: words.slice(1) } : { agentId: agentId ?? 'demo' };
  const notes = [
    ...(prompt.length ? [] : ['The session has no prompt yet: type the one every agent gets.']),
    ...(agentId ? [] : ['The session does not say which agent it ran: pick the first agent too.']),
    ...(cwd ? [] : ['The session does not say which folder it ran in: choose the project folder.']),
  ];
  return {
    params: { cwd: cwd ?? '', agents: [{ agent: first }, { agent: { agentId: 'demo' } }], prompt, policy: 'ask' },
    notes,
  };
}
