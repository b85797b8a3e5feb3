/** "1 turn", "3 turns", "0 files": a count with its noun, singular only for exactly one. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
