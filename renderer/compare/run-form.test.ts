import { describe, expect, it } from 'vitest';
import type { CreateRunParams } from '../../common/api/compare-types';
import { agentRow, CUSTOM_COMMAND, formFromParams, parseConfig, toCreateParams, type RunForm } from './run-form';

const form = (partial: Partial<RunForm> = {}): RunForm => ({
  agents: [agentRow({ agentId: 'claude-code', mode: 'plan' }), agentRow({ agentId: 'claude-code', model: 'opus', config: 'effort=high, verbose=true' })],
  cwd: '/home/me/project',
  prompt: 'Fix the tests',
  policy: 'ask',
  setupCommand: '',
  verifyCommand: ' npm test ',
  ...partial,
});

describe('toCreateParams', () => {
  it('turns the form into runs/create params: the same agent twice with other settings', () => {
    expect(toCreateParams(form())).toEqual({
      cwd: '/home/me/project',
      agents: [
        { agent: { agentId: 'claude-code' }, mode: 'plan' },
        { agent: { agentId: 'claude-code' }, model: 'opus', config: [['effort', 'high'], ['verbose', 'true']] },
      ],
      prompt: [{ type: 'text', text: 'Fix the tests' }],
      policy: 'ask',
      verifyCommand: 'npm test',
    });
  });

  it('splits custom command lines like a shell, adds attachments after the text', () => {
    const p = toCreateParams(form({ agents: [agentRow({ agentId: CUSTOM_COMMAND, command: 'node "/a b/agent.js" --acp', label: 'mine' }), agentRow()] }), [{ type: 'resource', resource: { uri: 'file:///x', text: 'x' } }]);
    expect(p.agents[0]).toEqual({ agent: { command: 'node', args: ['/a b/agent.js', '--acp'] }, label: 'mine' });
    expect(p.prompt.map((b) => b.type)).toEqual(['text', 'resource']);
  });

  it('says what to fix', () => {
    expect(() => toCreateParams(form({ agents: [agentRow()] }))).toThrow('2 to 6 agents');
    expect(() => toCreateParams(form({ cwd: 'project' }))).toThrow('absolute path');
    expect(() => toCreateParams(form({ prompt: '  ' }))).toThrow('Type the prompt');
    expect(() => toCreateParams(form({ agents: [agentRow({ agentId: CUSTOM_COMMAND }), agentRow()] }))).toThrow('Agent 1: type the command');
    expect(() => toCreateParams(form({ agents: [agentRow(), agentRow({ config: 'oops' })] }))).toThrow('Agent 2: Config values are configId=value; "oops" is not');
    expect(parseConfig('')).toEqual([]);
  });
});

describe('formFromParams (Run again)', () => {
  it('fills the form that gives the same params back, attachments aside', () => {
    const params: CreateRunParams = {
      cwd: '/home/me/project',
      agents: [
        { agent: { agentId: 'claude-code' }, label: 'claude', mode: 'plan', config: [['reasoning', 'high'], ['tools', 'all']] },
        { agent: { command: '/opt/my agent/bin', args: ['--acp', "it's"] }, label: 'mine', model: 'fast' },
      ],
      prompt: [
        { type: 'text', text: 'fix the parser\nand its tests' },
        { type: 'resource_link', uri: 'file:///home/me/project/a.ts', name: 'a.ts' },
      ],
      policy: 'reads',
      setupCommand: 'npm ci',
      verifyCommand: 'npm test',
    };
    const { form, attachments } = formFromParams(params);
    expect(form.agents.map((a) => [a.agentId, a.command, a.config])).toEqual([
      ['claude-code', '', 'reasoning=high, tools=all'],
      [CUSTOM_COMMAND, `'/opt/my agent/bin' --acp 'it'\\''s'`, ''],
    ]);
    expect(attachments).toEqual([params.prompt[1]]);
    expect(toCreateParams(form, attachments)).toEqual(params);
  });
});
