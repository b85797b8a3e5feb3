/**
 * A token count written short, one way everywhere (usage notes, the pane's meter, history):
 * 950, 1.2k, 48k, 1.5M, 12M; '?' when unknown.
 */
export function formatTokens(n: number | undefined): string {
  if (n === undefined) return '?';
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}
