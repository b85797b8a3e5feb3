/** Rules about lines and JSON-RPC envelopes: what crosses the agent's stdout. */
import { docsLink, IN_ANSWERS, IN_MESSAGES, type Rule } from '../types';

const quote = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);

export const stdoutNoise: Rule = {
  id: 'stdout-noise',
  severity: 'error',
  rationale: 'stdout carries only JSON-RPC messages, one per line; anything else breaks clients that do not filter it.',
  docs: docsLink('stdout-noise'),
  on: ['noise'],
  observe(record, line) {
    if (record.kind !== 'noise' || record.dir !== 'in') return;
    const shown = 'text' in record ? (record.text.trim() === '' ? 'an empty line' : quote(record.text)) : 'bytes that are not valid UTF-8';
    return { key: 'noise', message: `The agent wrote a line to stdout that is not a JSON-RPC message: ${shown}`, evidence: [line] };
  },
};

export const oversizeLine: Rule = {
  id: 'oversize-line',
  severity: 'warning',
  rationale: 'A line over 32 MiB exceeds the SDK\'s default limit, and SDK-based clients then close the connection.',
  docs: docsLink('oversize-line'),
  on: ['oversize'],
  observe(record, line) {
    if (record.kind !== 'oversize' || record.dir !== 'in') return;
    return { key: 'oversize', message: `The agent wrote a line of ${record.length} bytes (over the 32 MiB limit)`, evidence: [line] };
  },
};

export const jsonRpcEnvelope: Rule = {
  id: 'jsonrpc-envelope',
  severity: 'error',
  rationale: 'Every message must be a valid JSON-RPC 2.0 request, notification or response, or the peer cannot route it.',
  docs: docsLink('jsonrpc-envelope'),
  on: IN_MESSAGES,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in') return;
    if (!ctx.current.envelope?.problems.length && !record.invalidUtf8) return; // the usual case, without allocating
    const problems = [...(ctx.current.envelope?.problems ?? [])];
    if (record.invalidUtf8) problems.push('the line is not valid UTF-8');
    return problems.map((problem) => ({ key: problem, message: `Invalid JSON-RPC message: ${problem}`, evidence: [line] }));
  },
};

export const resultAndError: Rule = {
  id: 'result-and-error',
  severity: 'error',
  rationale: 'A response carries exactly one of "result" and "error"; with both, the client cannot tell success from failure.',
  docs: docsLink('result-and-error'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in' || !ctx.current.envelope?.resultAndError) return;
    const method = ctx.current.answers?.method;
    return { key: method ?? '?', message: `The answer${method ? ` to ${method}` : ''} has both "result" and "error"`, evidence: [line, ...(ctx.current.answers ? [ctx.current.answers.line] : [])] };
  },
};

export const unknownResponseId: Rule = {
  id: 'unknown-response-id',
  severity: 'error',
  rationale: 'A response must answer a request the client sent and has not had answered; any other id matches nothing.',
  docs: docsLink('unknown-response-id'),
  on: IN_ANSWERS,
  observe(record, line, ctx) {
    if (record.kind !== 'wire' || record.dir !== 'in') return;
    const c = ctx.current;
    const id = record.msg.id;
    if (c.envelope?.shape !== 'response' || c.answers || (typeof id !== 'string' && typeof id !== 'number')) return;
    return { key: JSON.stringify(record.msg.id), message: `The agent answered id ${JSON.stringify(record.msg.id)}, which is not a pending request of the client`, evidence: [line] };
  },
};
