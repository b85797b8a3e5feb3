import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** The WCAG 2.0 / 2.1 A and AA rules: what the workbench's screens are held to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Impacts that fail a screen; "minor" and "moderate" findings are reported by axe but not gated. */
export const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** One line per violation, with its first targets, so a failing run says what to fix and where. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) => {
      const targets = v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ');
      const more = v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : '';
      const why = v.nodes[0]?.failureSummary?.split('\n').slice(1, 2).join(' ').trim();
      return `${v.id} [${v.impact}] ${v.help}: ${targets}${more}${why ? `\n    ${why}` : ''}`;
    })
    .join('\n');
}

/**
 * Runs axe over the page (or the part `include` names) with the WCAG A/AA rules and fails when a
 * violation of impact serious or critical remains, listing each one.
 */
export async function expectNoSeriousViolations(page: Page, screen: string, options: { include?: string; exclude?: string[] } = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const blocking = results.violations.filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ''));
  // The lesser ones do not fail the test; they are kept in its report as annotations.
  const lesser = results.violations.filter((v) => !BLOCKING_IMPACTS.has(v.impact ?? ''));
  if (lesser.length > 0) test.info().annotations.push({ type: `axe moderate/minor: ${screen}`, description: describeViolations(lesser) });
  expect.soft(describeViolations(blocking), `axe on ${screen}`).toBe('');
}
