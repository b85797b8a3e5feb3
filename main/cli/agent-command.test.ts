import { describe, expect, it } from 'vitest';
import { agentCommandWords } from './agent-command';
import { UsageError } from './exit-codes';

describe('agentCommandWords', () => {
  it('splits a command line as a shell would, without running one, and labels it by the program file', () => {
    expect(agentCommandWords(`"/opt/my agents/bin/agent" --model 'big one' -v`)).toEqual({
      command: '/opt/my agents/bin/agent',
      args: ['--model', 'big one', '-v'],
      label: 'agent',
    });
    // Backslashes escape as in a POSIX shell; quoted, a Windows path keeps them.
    expect(agentCommandWords(`'C:\\tools\\agent.exe' --acp`)).toMatchObject({ command: 'C:\\tools\\agent.exe', label: 'agent.exe' });
  });
  it('says which flag is wrong for an empty or unbalanced line', () => {
    expect(() => agentCommandWords('   ')).toThrow(new UsageError('--agent-cmd needs a command'));
    expect(() => agentCommandWords(`agent "unclosed`)).toThrow(UsageError);
    expect(() => agentCommandWords(`agent "unclosed`)).toThrow(/^--agent-cmd: /);
  });
});
