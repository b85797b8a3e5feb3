import { describe, expect, it } from 'vitest';
import { createProgressText } from './create-progress-text';

const labels = ['Claude Code', 'Codex', 'Gemini'];
const at = (p: Record<string, unknown>) => createProgressText({ of: 3, ...p } as unknown as Parameters<typeof createProgressText>[0], labels);

describe('what the dialog says while a run is being created', () => {
  it('names each step, the agent by number and label', () => {
    expect(at({ step: 'snapshot' })).toBe('Recording the project’s working tree…');
    expect(at({ step: 'workspace', agent: 2 })).toBe('Making the workspace of agent 2 of 3 (Codex)…');
    expect(at({ step: 'capture' })).toBe('Recording the copy as the comparison’s starting point…');
    expect(at({ step: 'setup' })).toBe('Running the setup command in the workspaces…');
    expect(at({ step: 'start', started: 1 })).toBe('Starting the agents: 1 of 3 ready…');
  });
  it('counts a copy’s files and bytes', () => {
    expect(at({ step: 'workspace', agent: 3, files: 12345, bytes: 5 * 1024 * 1024 })).toBe('Copying the project for agent 3 of 3 (Gemini): 12,345 files, 5.0 MB…');
    expect(at({ step: 'workspace', agent: 1, files: 1, bytes: 10 })).toMatch(/^Copying the project for agent 1 of 3 \(Claude Code\): 1 file, /);
  });
  it('does without a label it does not know', () => {
    expect(createProgressText({ step: 'workspace', agent: 4, of: 4 }, labels)).toBe('Making the workspace of agent 4 of 4…');
  });
});
