import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../common/trace/launch-spec';
import { runRecipe } from './run-recipe';
import type { RunAgentRecord, RunRecord } from './run-types';

function agent(index: number, fields: Partial<RunAgentRecord>): RunAgentRecord {
  return {
    index,
    label: `a${index}`,
    agentId: 'demo',
    launch: null,
    workspace: `/runs/r/${index}`,
    cwd: `/runs/r/${index}`,
    base: 'b',
    result: null,
    status: 'done',
    error: null,
    sessionId: null,
    agentSessionId: null,
    trace: null,
    setup: null,
    verify: null,
    figures: null,
    files: [],
    patchFile: null,
    ...fields,
  };
}

function run(agents: RunAgentRecord[], fields: Partial<RunRecord> = {}): RunRecord {
  return {
    version: 1,
    id: 'r',
    createdAt: '2026-12-03T00:00:00.000Z',
    updatedAt: '2026-12-03T00:00:00.000Z',
    status: 'ready',
    source: { cwd: '/home/me/project', root: '/home/me/project', subdir: '', isolation: 'worktree', head: 'h', branch: 'main' },
    base: 'b',
    gitDir: null,
    prompts: [{ at: '2026-12-03T00:00:00.000Z', prompt: [{ type: 'text', text: 'fix it' }, { type: 'resource_link', uri: 'file:///home/me/project/a.ts', name: 'a.ts' }], agents: [0, 1] }],
    policy: 'reads',
    setupCommand: 'npm ci',
    verifyCommand: null,
    links: [],
    skipped: [],
    warnings: [],
    agents,
    promoted: null,
    discardedAt: null,
    error: null,
    ...fields,
  };
}

describe('runRecipe', () => {
  it('gives back the folder, prompt, policy, commands and each agent with its label, mode, model and config', () => {
    const recipe = runRecipe(
      run([
        agent(0, { agentId: 'claude-code', label: 'claude', mode: 'plan', config: [['reasoning', 'high']] }),
        agent(1, { agentId: 'claude-code', label: 'claude#2', model: 'fast' }),
      ]),
      new Set(['claude-code', 'demo']),
    );
    expect(recipe).toEqual({
      params: {
        cwd: '/home/me/project',
        agents: [
          { agent: { agentId: 'claude-code' }, label: 'claude', mode: 'plan', config: [['reasoning', 'high']] },
          // A repeated label loses its number: the new run numbers it again.
          { agent: { agentId: 'claude-code' }, label: 'claude', model: 'fast' },
        ],
        prompt: [{ type: 'text', text: 'fix it' }, { type: 'resource_link', uri: 'file:///home/me/project/a.ts', name: 'a.ts' }],
        policy: 'reads',
        setupCommand: 'npm ci',
      },
      notes: [],
    });
  });

  it('gives an ad-hoc agent back as its command line, and says what the record could not keep', () => {
    const recipe = runRecipe(
      run(
        [
          agent(0, { agentId: 'gone-agent', label: 'gone' }),
          agent(1, {
            agentId: 'my-agent --acp --token <redacted>',
            label: 'mine',
            launch: { command: 'my-agent', args: ['--acp', '--token', REDACTED], env: [{ name: 'API_KEY', redacted: true }, { name: 'MODE', value: 'x' }] },
          }),
        ],
        { prompts: [0, 1, 2].map((n) => ({ at: '', prompt: [{ type: 'text', text: `p${n}` }], agents: [0, 1] })) },
      ),
      new Set(['demo']),
    );
    expect(recipe.params.agents.map((a) => a.agent)).toEqual([{ agentId: 'gone-agent' }, { command: 'my-agent', args: ['--acp', '--token', REDACTED] }]);
    expect(recipe.params.prompt).toEqual([{ type: 'text', text: 'p0' }]);
    expect(recipe.notes).toEqual([
      'Agent 1 (gone): "gone-agent" is no longer in the agent catalog; pick another agent or add it again.',
      `Agent 2 (mine): a secret argument was not recorded (${REDACTED}); type it again in its command line.`,
      'Agent 2 (mine): its environment variables (API_KEY, MODE) are not part of a command line; set them in a custom agent of the catalog instead.',
      "The run's 2 follow-up prompts are not part of a new run: send them once its agents are done.",
    ]);
  });
});
