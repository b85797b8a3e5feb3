/**
 * What counts as "the scenario worked" for the smoke check, judged from the files on disk, the
 * session updates and the model server's own record of the steps it played.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULTS } from './model-server/scenarios';
import type { ReplyRecord } from './model-server/types';

export type ScenarioName = 'text' | 'edit-file' | 'create-file' | 'shell' | 'shell-write' | 'plan' | 'slow';

export interface Evidence {
  scenario: ScenarioName;
  stopReason: string | undefined;
  updates: Record<string, unknown>[];
  filesBefore: Map<string, string>;
  filesAfter: Map<string, string>;
  records: ReplyRecord[];
}

export interface Verdict {
  pass: boolean;
  detail: string;
}

export function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      if (name === '.git' || name === 'node_modules') continue;
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, content] of after) {
    if (!before.has(path)) out.push(`+${path}`);
    else if (before.get(path) !== content) out.push(`~${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) out.push(`-${path}`);
  return out;
}

export function updateKinds(updates: Record<string, unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const u of updates) {
    const kind = String((u['update'] as Record<string, unknown> | undefined)?.['sessionUpdate'] ?? '?');
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

export function agentText(updates: Record<string, unknown>[]): string {
  return updates
    .map((u) => u['update'] as Record<string, unknown>)
    .filter((u) => u?.['sessionUpdate'] === 'agent_message_chunk')
    .map((u) => String((u['content'] as { text?: string } | undefined)?.text ?? ''))
    .join('');
}

/** `read(Read) → edit(Edit) → text`: the steps the model server played for this turn. */
export function stepsPlayed(records: ReplyRecord[]): string {
  return records
    .filter((r) => r.action !== 'side-request')
    .map((r) => (r.toolName ? `${r.action}(${r.toolName})` : r.action))
    .join(' → ');
}

function finishedScript(records: ReplyRecord[]): boolean {
  const main = records.filter((r) => r.action !== 'side-request');
  return main.length > 1 && main[main.length - 1]!.action === 'text' && !main[main.length - 1]!.note;
}

export function judge(e: Evidence): Verdict {
  const endTurn = e.stopReason === 'end_turn';
  const played = stepsPlayed(e.records);
  switch (e.scenario) {
    case 'text': {
      const ok = endTurn && agentText(e.updates).includes('Hello from the scripted model');
      return { pass: ok, detail: ok ? 'text streamed' : `text missing (stop ${e.stopReason})` };
    }
    case 'edit-file': {
      const content = e.filesAfter.get('notes.txt') ?? '';
      const ok = endTurn && content.includes(DEFAULTS.newText) && !content.includes(DEFAULTS.oldText);
      return { pass: ok, detail: ok ? `edited via ${played}` : `notes.txt=${JSON.stringify(content)}; steps ${played}` };
    }
    case 'create-file': {
      const content = e.filesAfter.get(DEFAULTS.createFile);
      const ok = endTurn && content?.trim() === DEFAULTS.createContent.trim();
      return { pass: ok, detail: ok ? `created via ${played}` : `created.txt=${JSON.stringify(content)}; steps ${played}` };
    }
    case 'shell': {
      const marker = 'acp-shell-ok';
      // Output, not just the command line echoed back: more markers than `echo marker`s.
      const hasOutput = (text: string): boolean => count(text, marker) > count(text, `echo ${marker}`);
      const inResult = e.records.some((r) => hasOutput(r.previousToolResult ?? ''));
      const inUpdates = hasOutput(JSON.stringify(e.updates));
      const ok = endTurn && (inResult || inUpdates) && finishedScript(e.records);
      return { pass: ok, detail: ok ? `output seen ${inResult ? 'by model' : 'in updates'}` : `no command output; steps ${played}` };
    }
    case 'shell-write': {
      const content = e.filesAfter.get('shell-ok.txt');
      const ok = endTurn && content?.trim() === 'acp-shell-ok';
      return { pass: ok, detail: ok ? `file written by ${played}` : `shell-ok.txt=${JSON.stringify(content)}; steps ${played}` };
    }
    case 'plan': {
      const planUpdates = e.updates.filter((u) => (u['update'] as Record<string, unknown>)?.['sessionUpdate'] === 'plan').length;
      const ok = endTurn && finishedScript(e.records);
      return { pass: ok, detail: `${planUpdates} plan update(s); steps ${played}` };
    }
    case 'slow': {
      const ok = e.stopReason === 'cancelled';
      return { pass: ok, detail: ok ? 'cancelled' : `stop ${e.stopReason}` };
    }
  }
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
