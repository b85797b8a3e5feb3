/**
 * docs/cli.md matches the code: every command has its section, and every flag a command's `--help`
 * names appears in that section (a flag added to a command without a word in the docs fails here).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { commands } from './commands';

const doc = readFileSync(resolve(__dirname, '..', '..', 'docs', 'cli.md'), 'utf8');

/** The text of `## \`acp-workbench NAME\`` up to the next `## ` heading. */
function section(name: string): string | undefined {
  const start = doc.indexOf(`## \`acp-workbench ${name}\``);
  if (start < 0) return undefined;
  const next = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, next < 0 ? undefined : next);
}

/** `--flag` words of a usage text (a `--[no-]x` form counts as `--x`). */
function flagsOf(usage: string): string[] {
  return [...new Set([...usage.matchAll(/--(?:\[no-\])?([a-z][a-z0-9-]*)/g)].map((m) => `--${m[1]}`))].sort();
}

describe('docs/cli.md', () => {
  for (const entry of commands) {
    it(`documents \`${entry.name}\` and every flag its --help names`, async () => {
      const text = section(entry.name);
      expect(text, `docs/cli.md has no "## \`acp-workbench ${entry.name}\`" section`).toBeDefined();
      const command = await entry.load();
      const missing = flagsOf(command.usage).filter((flag) => flag !== '--help' && !text!.includes(flag));
      expect(missing, `flags of \`${entry.name} --help\` that its section of docs/cli.md does not mention`).toEqual([]);
    });
  }
});
