import { describe, expect, it } from 'vitest';
import type { Entry } from '../../common/transcript/model';
import { FAST_ROWS, UPGRADE_ROWS, createLightRows, lightChars, lightText } from './light-rows';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `e${from + i}`);

describe('light rows while a pane scrolls fast', () => {
  it('draws every row full while the pane is still or scrolls slowly', () => {
    const rows = createLightRows();
    expect(rows.pick(range(100, 140), false).size).toBe(0);
    // A wheel notch: a few rows enter.
    expect(rows.pick(range(96, 136), true).size).toBe(0);
    expect(rows.pick(range(96 - FAST_ROWS, 136 - FAST_ROWS), true).size).toBe(0);
  });

  it('draws the rows a fast scroll brings in light, keeps the full ones full, and keeps light rows light while it scrolls', () => {
    const rows = createLightRows();
    rows.pick(range(100, 140), false);
    const first = rows.pick(range(86, 126), true); // 14 rows enter
    expect([...first]).toEqual(range(86, 100));
    const second = rows.pick(range(80, 120), true); // 6 more enter: slow now, but the earlier light rows stay light
    expect([...second]).toEqual(range(86, 100));
  });

  it('turns light rows full a few per call once the pane is still, the first ones first', () => {
    const rows = createLightRows();
    rows.pick(range(100, 140), false);
    rows.pick(range(80, 120), true); // 20 light
    let light = rows.pick(range(80, 120), false);
    expect([...light]).toEqual(range(80 + UPGRADE_ROWS, 100));
    let calls = 1;
    while (light.size > 0) {
      light = rows.pick(range(80, 120), false);
      calls++;
    }
    expect(calls).toBe(Math.ceil(20 / UPGRADE_ROWS));
    // A light row that leaves the pane is forgotten: it comes back as a new row.
    rows.pick(range(100, 140), false);
    rows.pick(range(60, 100), true);
    expect(rows.pick(range(100, 140), true).size).toBe(40);
  });
});

describe('the text of a light row', () => {
  const base = { turn: 1, t: 0 };
  it('is the start of a message or thought, a tool call title, nothing for the rest', () => {
    expect(lightText({ ...base, id: 'a', kind: 'agent_message', content: [{ type: 'text', text: 'Hello **there**' }] } as Entry)).toBe('Hello **there**');
    expect(lightText({ ...base, id: 't', kind: 'thought', content: [{ type: 'text', text: 'x'.repeat(1000) }] } as Entry)).toBe(`Thought ${'x'.repeat(300)}`);
    expect(lightText({ ...base, id: 'c', kind: 'tool_call', title: 'Edit a.ts' } as Entry)).toBe('Edit a.ts');
    expect(lightText({ ...base, id: 'u', kind: 'usage' } as unknown as Entry)).toBe('');
    expect(lightText(undefined)).toBe('');
  });

  it('is cut to what fills the pane: a narrow pane gets fewer characters, never fewer than 40 nor more than 300', () => {
    expect(lightChars(340)).toBe(85);
    expect(lightChars(100)).toBe(40);
    expect(lightChars(2400)).toBe(300);
    expect(lightChars(undefined)).toBe(300);
    expect(lightChars(0)).toBe(300);
    const entry = { ...base, id: 't', kind: 'thought', content: [{ type: 'text', text: 'x'.repeat(1000) }] } as Entry;
    expect(lightText(entry, lightChars(340))).toBe(`Thought ${'x'.repeat(85)}`);
  });
});
