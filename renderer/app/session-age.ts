/**
 * How long ago a session was last active, as a person says it: "just now", "5 min ago", "3 h ago",
 * "yesterday", "4 days ago", then the date. `now` is passed in so a list says it once for all rows.
 */
export function sessionAge(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return new Date(thenMs).toLocaleDateString(undefined, { dateStyle: 'medium' });
}
