import { describe, expect, it } from 'vitest';
import { stopQuestion, workingAgents } from './quit-guard';

const session = (label: string, status: string, name?: string) => ({ agent: { label, ...(name ? { name } : {}) }, status: { status } });

describe('the question before quitting', () => {
  it('names the agents mid-turn (working or waiting for an answer), not those that are idle, starting, crashed or closed', async () => {
    const core = {
      handle: async () => [
        session('first', 'prompting', 'Claude Code'),
        session('Codex', 'waiting', 'Codex'),
        session('idle', 'ready'),
        session('starting', 'starting'),
        session('gone', 'crashed'),
        session('done', 'closed'),
      ],
    };
    expect(await workingAgents(core)).toEqual(['first (Claude Code)', 'Codex']);
    expect(await workingAgents({ handle: async () => [] })).toEqual([]);
  });

  it('says what quitting does to one agent or several; Cancel is the default and Esc', () => {
    const one = stopQuestion(['Codex']);
    expect(one).toMatchObject({ message: 'An agent is still working', buttons: ['Stop and quit', 'Cancel'], defaultId: 1, cancelId: 1 });
    expect(one.detail).toBe('Codex: quitting stops it and its turn ends as cancelled. What it did so far is recorded in History, from where its session can be resumed.');
    const two = stopQuestion(['first (Claude Code)', 'Codex']);
    expect(two.message).toBe('2 agents are still working');
    expect(two.detail).toMatch(/^first \(Claude Code\), Codex: quitting stops them and their turns end as cancelled\./);
  });
});
