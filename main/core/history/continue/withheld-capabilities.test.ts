import { describe, expect, it } from 'vitest';
import { withheldCapabilities } from './withheld-capabilities';

describe('capabilities a past session was started without', () => {
  it('withholds again what initialize did not advertise', () => {
    expect(withheldCapabilities({ fs: { readTextFile: false, writeTextFile: true }, terminal: true })).toEqual({ readTextFile: false });
    expect(withheldCapabilities({ fs: { readTextFile: true, writeTextFile: true }, terminal: false })).toEqual({ terminal: false });
    // Absent means not supported (acp-reference: capabilities are promises).
    expect(withheldCapabilities({ terminal: true })).toEqual({ readTextFile: false, writeTextFile: false });
  });

  it('restores nothing when everything was advertised, or nothing is known', () => {
    expect(withheldCapabilities({ fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: true } })).toEqual({});
    expect(withheldCapabilities(null)).toEqual({});
    expect(withheldCapabilities(undefined)).toEqual({});
    expect(withheldCapabilities('garbage')).toEqual({});
    expect(withheldCapabilities([])).toEqual({});
  });
});
