import { describe, expect, it } from 'vitest';
import type { SessionView } from '../state/sessions-store';
import { compareRecipe, recipeFromSession } from './compare-session';

function view(agentId: string, entries: Record<string, unknown>): SessionView {
  return { summary: { cwd: '/home/me/project', agent: { agentId } }, transcript: { ids: Object.keys(entries), entries } } as unknown as SessionView;
}
const prompt = (text: string) => ({ kind: 'user_message', content: [{ type: 'text', text }] });

describe('Compare across agents from a session', () => {
  it('takes the folder, the last prompt and the catalog agent first', () => {
    const recipe = recipeFromSession(view('claude-code', { e1: prompt('first'), e2: { kind: 'agent_message' }, e3: prompt('second'), e4: { kind: 'turn_end' } }));
    expect(recipe).toEqual({
      params: {
        cwd: '/home/me/project',
        agents: [{ agent: { agentId: 'claude-code' } }, { agent: { agentId: 'demo' } }],
        prompt: [{ type: 'text', text: 'second' }],
        policy: 'ask',
      },
      notes: [],
    });
  });

  it('gives an ad-hoc agent back as its command, and says when there is no prompt to take', () => {
    const recipe = recipeFromSession(view('/usr/bin/node /opt/agent.js --acp', {}));
    expect(recipe.params.agents[0]).toEqual({ agent: { command: '/usr/bin/node', args: ['/opt/agent.js', '--acp'] } });
    expect(recipe.params.prompt).toEqual([]);
    expect(recipe.notes).toEqual(['The session has no prompt yet: type the one every agent gets.']);
  });

  it('says what a recorded session did not keep: its agent, its folder', () => {
    const recipe = compareRecipe(undefined, undefined, [{ type: 'text', text: 'go' }]);
    expect(recipe.params.cwd).toBe('');
    expect(recipe.params.agents[0]).toEqual({ agent: { agentId: 'demo' } });
    expect(recipe.notes).toEqual([
      'The session does not say which agent it ran: pick the first agent too.',
      'The session does not say which folder it ran in: choose the project folder.',
    ]);
  });
});
