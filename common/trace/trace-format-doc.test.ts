/**
 * docs/trace-format.md matches the code: its example lines are records the trace parser takes
 * without a complaint, and every record kind the format has is shown by at least one of them.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseTraceText } from './parse';
import { TRACE_RECORD_KINDS } from './records';

const doc = readFileSync(resolve(__dirname, '..', '..', 'docs', 'trace-format.md'), 'utf8');
const examples = doc.split('\n').filter((line) => line.startsWith('{"kind":'));

describe('docs/trace-format.md', () => {
  it('shows a header and records that parse as a trace without a corrupt line, one of every kind', () => {
    const header = examples.filter((line) => line.startsWith('{"kind":"header"'));
    const records = examples.filter((line) => !line.startsWith('{"kind":"header"'));
    expect(header).toHaveLength(1);
    const parsed = parseTraceText([...header, ...records].join('\n') + '\n');
    expect(parsed.corrupt).toEqual([]);
    expect(parsed.header?.format).toBe('acp-workbench-trace');
    expect(parsed.records).toHaveLength(records.length);
    expect(new Set(parsed.records.map((r) => r.kind))).toEqual(new Set(TRACE_RECORD_KINDS));
  });
});
