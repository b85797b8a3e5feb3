/**
 * An agent named on the command line by `--agent-cmd "…"`: the words of a shell command line (no
 * shell runs it), the program first. Shared by `run`, `check` and `sessions resume|fork`.
 */
import { splitShellWords } from '../../common/text/shell-words';
import { UsageError } from './exit-codes';

export interface AgentCommandWords {
  command: string;
  args: string[];
  /** The program's file name, as the agent's label until it says its own name. */
  label: string;
}

/** The program and its arguments; a UsageError that names the flag for an empty or unbalanced line. */
export function agentCommandWords(text: string): AgentCommandWords {
  let words: string[];
  try {
    words = splitShellWords(text);
  } catch (err) {
    throw new UsageError(`--agent-cmd: ${(err as Error).message}`);
  }
  if (words.length === 0) throw new UsageError('--agent-cmd needs a command');
  return { command: words[0]!, args: words.slice(1), label: words[0]!.replace(/^.*[/\\]/, '') };
}
