/** Prompts sent from this window, newest last, remembered across restarts (up/down in the composer). */
const KEY = 'acp-workbench.prompt-history.v1';
const MAX = 100;

export function loadHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(-MAX) : [];
  } catch {
    return [];
  }
}

export function remember(prompt: string): void {
  const list = loadHistory().filter((p) => p !== prompt);
  list.push(prompt);
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(-MAX)));
  } catch {
    // History is a convenience; a full storage only loses it.
  }
}
