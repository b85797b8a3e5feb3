import { describe, expect, it } from 'vitest';
import { parseEnvLines } from './env-lines';

describe('parseEnvLines', () => {
  it('reads KEY=VALUE lines, keeping "=" inside values and skipping blank lines', () => {
    expect(parseEnvLines('A=1\n\n B=x=y \n')).toEqual({ A: '1', B: 'x=y' });
  });
  it('names the line that is not KEY=VALUE', () => {
    expect(() => parseEnvLines('A=1\noops')).toThrow('"oops" is not');
  });
});
