/**
 * An agent's reported cost, written one way everywhere (pane header, usage notes, history,
 * comparison): two decimals, up to four for amounts under 1 so small turns do not read as 0.00 —
 * "0.0042 USD", "0.05 USD", "1,234.50 USD".
 */
export function formatCost(amount: number, currency?: string): string {
  const digits = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: Math.abs(amount) < 1 ? 4 : 2 }).format(amount);
  return currency ? `${digits} ${currency}` : digits;
}
