import { describe, expect, it } from 'vitest';
import { UsageError } from '../exit-codes';
import { parseCapabilityFlags } from './capability-flags';

describe('run --capability', () => {
  it('switches the named capabilities, the last word for a name winning', () => {
    expect(parseCapabilityFlags(['fs.readTextFile=off', 'terminal=on', 'fs.writeTextFile=false', 'terminal=OFF'])).toEqual({ readTextFile: false, writeTextFile: false, terminal: false });
    expect(parseCapabilityFlags([])).toEqual({});
  });

  it('refuses what it cannot switch, saying what it can', () => {
    expect(() => parseCapabilityFlags(['fs.read=off'])).toThrow(/unknown capability "fs.read".*known: fs.readTextFile, fs.writeTextFile, terminal/);
    expect(() => parseCapabilityFlags(['auth.terminal=on'])).toThrow(/no terminal to show a login in/);
    expect(() => parseCapabilityFlags(['terminal=maybe'])).toThrow(/must be on or off, got "maybe"/);
    expect(() => parseCapabilityFlags(['terminal'])).toThrow(UsageError);
    expect(() => parseCapabilityFlags(['=off'])).toThrow(/NAME=on\|off/);
  });
});
