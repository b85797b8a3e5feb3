/**
 * Scenarios: what the scripted model does, as a list of abstract actions per scenario. A prompt
 * chooses one with a marker such as `[scenario:edit-file file=/abs/notes.txt]`; the conversation's
 * tool results say how far it has got (see `player.ts`).
 */

export type Action =
  | { kind: 'text'; text: string }
  | { kind: 'slow-text'; chunks: number; intervalMs: number }
  | { kind: 'read'; path: string; optional: true }
  | { kind: 'edit'; path: string; oldText: string; newText: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'shell'; command: string; escalate: boolean }
  | { kind: 'plan'; entries: PlanItem[] };

export interface PlanItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface ScenarioMarker {
  name: string;
  args: Record<string, string>;
}

export const DEFAULTS = {
  editFile: 'notes.txt',
  oldText: 'Hello, world!',
  newText: 'Goodbye, world!',
  createFile: 'created.txt',
  createContent: 'Created by the scripted model.\n',
  shellCommand: 'echo acp-shell-ok',
  finalText: 'Done: the scripted step finished.',
  /** The `full` scenario's command: writes a file, so every agent (codex too, with escalation) asks first. */
  fullShellCommand: 'echo acp-shell-ok > shell-ok.txt',
  shellFile: 'shell-ok.txt',
  textReply: 'Hello from the scripted model. This is a plain text reply.',
} as const;

export const SCENARIO_NAMES = ['text', 'read-file', 'edit-file', 'create-file', 'shell', 'plan', 'slow', 'full'] as const;

const PLAN: PlanItem[] = [
  { content: 'Read the code', status: 'completed' },
  { content: 'Make the change', status: 'in_progress' },
  { content: 'Run the tests', status: 'pending' },
];

/** Matches `[scenario:name key=value key="value with spaces"]`. */
const MARKER = /\[scenario:([a-z0-9-]+)((?:\s+[a-zA-Z_]+=(?:"[^"]*"|[^\s\]]+))*)\s*\]/;
const ARG = /([a-zA-Z_]+)=(?:"([^"]*)"|([^\s\]]+))/g;

export function parseMarker(text: string): ScenarioMarker | null {
  const match = MARKER.exec(text);
  if (!match) return null;
  const args: Record<string, string> = {};
  for (const arg of (match[2] ?? '').matchAll(ARG)) {
    args[arg[1]!] = arg[2] ?? arg[3] ?? '';
  }
  return { name: match[1]!, args };
}

/**
 * The actions of a scenario, the last always a text answer. `cwd` resolves relative file
 * arguments (agents' file tools want absolute paths); it is guessed from the request when the
 * marker does not give absolute paths.
 */
export function scenarioActions(marker: ScenarioMarker, cwd: string | undefined): Action[] | null {
  const a = marker.args;
  const file = (fallback: string): string => absolutize(a['file'] ?? fallback, cwd);
  const final: Action = { kind: 'text', text: a['reply'] ?? DEFAULTS.finalText };
  switch (marker.name) {
    case 'text':
      return [{ kind: 'text', text: a['reply'] ?? DEFAULTS.textReply }];
    case 'read-file':
      return [{ kind: 'read', path: file(DEFAULTS.editFile), optional: true }, final];
    case 'edit-file': {
      const path = file(DEFAULTS.editFile);
      // Claude's and opencode's edit tools refuse to touch a file that was not read first.
      return [
        { kind: 'read', path, optional: true },
        { kind: 'edit', path, oldText: a['old'] ?? DEFAULTS.oldText, newText: a['new'] ?? DEFAULTS.newText },
        final,
      ];
    }
    case 'create-file':
      return [{ kind: 'write', path: file(DEFAULTS.createFile), content: unescape(a['content']) ?? DEFAULTS.createContent }, final];
    case 'shell':
      // escalate=true: ask to leave the sandbox where the tool can (codex's sandbox_permissions), which makes codex ask permission.
      return [{ kind: 'shell', command: a['cmd'] ?? DEFAULTS.shellCommand, escalate: a['escalate'] === 'true' }, final];
    case 'plan':
      return [{ kind: 'plan', entries: PLAN }, final];
    case 'full': {
      // One turn doing everything: plan → (read) → edit → new file → shell command → text.
      const path = file(DEFAULTS.editFile);
      return [
        { kind: 'plan', entries: PLAN },
        { kind: 'read', path, optional: true },
        { kind: 'edit', path, oldText: a['old'] ?? DEFAULTS.oldText, newText: a['new'] ?? DEFAULTS.newText },
        { kind: 'write', path: absolutize(a['create'] ?? DEFAULTS.createFile, cwd), content: unescape(a['content']) ?? DEFAULTS.createContent },
        { kind: 'shell', command: a['cmd'] ?? DEFAULTS.fullShellCommand, escalate: a['escalate'] !== 'false' },
        final,
      ];
    }
    case 'slow':
    case 'long':
      return [{ kind: 'slow-text', chunks: num(a['chunks'], 300), intervalMs: num(a['interval'], 200) }];
    default:
      return null;
  }
}

function absolutize(path: string, cwd: string | undefined): string {
  if (path.startsWith('/') || !cwd) return path;
  return `${cwd.replace(/\/+$/, '')}/${path}`;
}

function unescape(value: string | undefined): string | undefined {
  return value?.replace(/\\n/g, '\n');
}

function num(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * Best-effort working directory from the agent's system prompt or first user message; every
 * agent states it in its own words.
 */
export function guessCwd(texts: string[]): string | undefined {
  const patterns = [
    /<cwd>([^<\n]+)<\/cwd>/, // codex environment_context
    /Working directory:\s*(\/[^\s<]+)/i, // Claude ("Primary working directory"), opencode
    /current working directory(?: is|:)\s*`?(\/[^\s`]+)/i,
    /Workspace Directories:\**\s*-\s*(\/[^\s]+)/, // gemini 0.61
    /working in the directory:\s*(\/[^\s]+)/i, // older gemini
  ];
  for (const text of texts) {
    for (const pattern of patterns) {
      const match = pattern.exec(text);
      if (match) return match[1]!.replace(/[.,;:]+$/, '');
    }
  }
  return undefined;
}
