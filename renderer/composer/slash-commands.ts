import type { AvailableCommand } from '../../common/transcript/acp-types';

/** The commands matching what the user typed after `/` at the start of the prompt, or null when not completing. */
export function slashMatches(text: string, commands: readonly AvailableCommand[]): AvailableCommand[] | null {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return null;
  const typed = m[1]!.toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(typed));
}

/** The prompt after choosing a command: `/name ` ready for its input. */
export function completeSlash(command: AvailableCommand): string {
  return `/${command.name} `;
}
