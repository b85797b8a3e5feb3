import { describe, expect, it } from 'vitest';
import type { ElicitationSchema } from '../../common/api/elicitation-types';
import { choicesOf, contentOf, initialValues, validate } from './form-values';

const schema: ElicitationSchema = {
  properties: {
    name: { type: 'string', minLength: 2 },
    email: { type: 'string', format: 'email' },
    count: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] },
    tags: { type: 'array', minItems: 1, items: { enum: ['a', 'b'] } },
  },
  required: ['name', 'tags'],
};

describe('elicitation form values', () => {
  it('starts from the defaults', () => {
    expect(initialValues(schema)).toEqual({ name: '', email: '', count: 2, ok: true, color: '', tags: [] });
  });
  it('names what is wrong, field by field', () => {
    const problems = validate(schema, { ...initialValues(schema), name: 'A', email: 'nope', count: 9 });
    expect(problems).toEqual({ name: 'At least 2 characters', email: 'An email address', count: 'At most 5', tags: 'Required' });
    expect(validate(schema, { ...initialValues(schema), name: 'Ada', tags: ['a'] })).toEqual({});
  });
  it('offers oneOf and enum choices with their labels', () => {
    expect(choicesOf(schema.properties.color!)).toEqual([{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }]);
    expect(choicesOf(schema.properties.tags!)).toEqual([{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }]);
    expect(choicesOf(schema.properties.name!)).toBeNull();
  });
  it('leaves empty optional fields out of the answer', () => {
    expect(contentOf(schema, { ...initialValues(schema), name: 'Ada', tags: ['b'] })).toEqual({ name: 'Ada', count: 2, ok: true, tags: ['b'] });
  });
});
