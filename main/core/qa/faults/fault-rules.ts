/**
 * QA fault rules: which of the agent's requests a rule catches (method, optional pattern on the
 * path / command / tool-call title) and checking rules that come from the UI. Pure.
 */
import type { FaultAction, FaultRule, FaultRuleInput } from '../../../../common/api/qa-types';

type Json = Record<string, unknown>;

export class FaultRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRuleError';
  }
}

/** Longest delay a rule may ask for (a longer one is surely a typo). */
export const MAX_DELAY_MS = 10 * 60_000;

/** `*`: every request; `?`: methods the workbench does not implement; `terminal/*`: every terminal method. */
export function methodMatches(ruleMethod: string, method: string, implemented: boolean): boolean {
  if (ruleMethod === '*') return true;
  if (ruleMethod === '?') return !implemented;
  if (ruleMethod.endsWith('/*')) return method.startsWith(ruleMethod.slice(0, -1));
  return ruleMethod === method;
}

/** What a pattern is matched against: an fs path, a terminal command line, a permission's tool-call title. */
export function subjectOf(params: unknown): string {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Json;
  if (typeof p.path === 'string') return p.path;
  if (typeof p.command === 'string') return [p.command, ...(Array.isArray(p.args) ? p.args.map(String) : [])].join(' ');
  const toolCall = p.toolCall as Json | undefined;
  if (toolCall && typeof toolCall === 'object') return [toolCall.title, toolCall.toolCallId].filter((x) => typeof x === 'string').join(' ');
  if (typeof p.message === 'string') return p.message;
  return '';
}

/** A pattern with `*` is a wildcard over the whole subject; without, a substring. Case-sensitive, like paths. */
export function patternMatches(pattern: string | undefined, subject: string): boolean {
  if (!pattern) return true;
  if (!pattern.includes('*')) return subject.includes(pattern);
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return re.test(subject);
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** The first enabled rule that catches this request. */
export function findRule(rules: readonly FaultRule[], method: string, params: unknown, implemented: boolean): FaultRule | undefined {
  let subject: string | undefined;
  for (const rule of rules) {
    if (!rule.enabled || !methodMatches(rule.method, method, implemented)) continue;
    if (rule.pattern && !patternMatches(rule.pattern, (subject ??= subjectOf(params)))) continue;
    return rule;
  }
  return undefined;
}

/** Check rules from the UI; ids are given to new rules. Throws FaultRuleError with words for the tester. */
export function checkRules(inputs: unknown, newId: () => string): FaultRule[] {
  if (!Array.isArray(inputs)) throw new FaultRuleError('rules must be a list');
  const checked = inputs.map((input, i) => {
    const r = (typeof input === 'object' && input !== null ? input : {}) as Partial<FaultRuleInput>;
    const where = `rule ${i + 1}`;
    if (typeof r.method !== 'string' || !r.method.trim()) throw new FaultRuleError(`${where}: choose the method it applies to`);
    if (r.pattern !== undefined && typeof r.pattern !== 'string') throw new FaultRuleError(`${where}: the pattern must be text`);
    const rule: Omit<FaultRule, 'id'> & { id?: string } = { method: r.method.trim(), action: checkAction(r.action, where), enabled: r.enabled !== false };
    if (typeof r.id === 'string' && r.id) rule.id = r.id;
    if (r.pattern?.trim()) rule.pattern = r.pattern.trim();
    return rule;
  });
  // Ids only once every rule is valid: a refused set uses none.
  return checked.map(({ id, ...rule }) => ({ id: id ?? newId(), ...rule }));
}

function checkAction(action: unknown, where: string): FaultAction {
  const a = (typeof action === 'object' && action !== null ? action : {}) as Json;
  switch (a.type) {
    case 'manual':
      return { type: 'manual' };
    case 'deny':
      return { type: 'deny' };
    case 'error': {
      if (typeof a.code !== 'number' || !Number.isInteger(a.code)) throw new FaultRuleError(`${where}: an error needs an integer code (e.g. -32603)`);
      const message = typeof a.message === 'string' && a.message ? a.message : 'Error injected by a QA rule';
      return { type: 'error', code: a.code, message, ...(a.data !== undefined ? { data: a.data } : {}) };
    }
    case 'delay': {
      const ms = Number(a.ms);
      if (!Number.isFinite(ms) || ms < 0 || ms > MAX_DELAY_MS) throw new FaultRuleError(`${where}: a delay is 0 to ${MAX_DELAY_MS} ms`);
      return { type: 'delay', ms: Math.round(ms) };
    }
    case 'content':
      if (typeof a.text !== 'string') throw new FaultRuleError(`${where}: other content needs its text`);
      return { type: 'content', text: a.text };
    default:
      throw new FaultRuleError(`${where}: unknown action "${String(a.type)}" (manual, error, delay, deny, content)`);
  }
}
