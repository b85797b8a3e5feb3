/** Rules that hold incoming messages against the ACP JSON schema the SDK ships. */
import type { SchemaIssue } from '../schema/validator';
import { docsLink, IN_ANSWERS, IN_CALLS, type FindingDraft, type Rule } from '../types';

/** At most this many problems of one message are reported (the first ones say enough). */
const MAX_ISSUES_PER_MESSAGE = 3;

/** `params.update.content[3].text` → `params.update.content[].text`: one finding for every item. */
const pathKey = (path: string): string => path.replace(/\[\d+\]/g, '[]');

function drafts(subject: string, issues: SchemaIssue[], line: number): FindingDraft[] {
  return issues.slice(0, MAX_ISSUES_PER_MESSAGE).map((issue) => ({
    key: `${subject}|${pathKey(issue.path)}|${issue.message}`,
    message: `${subject}: ${issue.path} ${issue.message}`,
    evidence: [line],
  }));
}

export const schemaParams: Rule = {
  id: 'schema-params',
  severity: 'error',
  rationale: 'Params that violate the schema are rejected by SDK-based clients: the request fails or the update is dropped.',
  docs: docsLink('schema-params'),
  on: IN_CALLS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in' || ctx.current.answers) return;
    const v = ctx.validation();
    if (!v || v.outcome.errors.length === 0) return;
    return drafts(v.subject, v.outcome.errors, line);
  },
};

export const schemaResult: Rule = {
  id: 'schema-result',
  severity: 'error',
  rationale: 'A result that violates the schema of the method it answers leaves the client with data it cannot use.',
  docs: docsLink('schema-result'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in' || !ctx.current.answers) return;
    const v = ctx.validation();
    if (!v || v.outcome.errors.length === 0) return;
    return drafts(v.subject, v.outcome.errors, line).map((d) => ({ ...d, evidence: [...d.evidence, ctx.current.answers!.line] }));
  },
};

export const schemaTolerated: Rule = {
  id: 'schema-tolerated',
  severity: 'warning',
  rationale: 'The SDK silently drops or defaults these invalid values, so what the agent meant never reaches the user.',
  docs: docsLink('schema-tolerated'),
  on: [...IN_CALLS, ...IN_ANSWERS],
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in') return;
    const v = ctx.validation();
    if (!v || v.outcome.tolerated.length === 0) return;
    return drafts(v.subject, v.outcome.tolerated, line);
  },
};
