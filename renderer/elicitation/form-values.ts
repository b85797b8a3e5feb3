import type { ElicitationProperty, ElicitationSchema } from '../../common/api/elicitation-types';

export type FieldValue = string | number | boolean | string[];

/** The choices of a string or array field (enum, oneOf or anyOf), with their labels. */
export function choicesOf(prop: ElicitationProperty): Array<{ value: string; label: string }> | null {
  if (prop.type === 'array') {
    const items = prop.items;
    if (items?.enum) return items.enum.map((v) => ({ value: v, label: v }));
    if (items?.anyOf) return items.anyOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
    return null;
  }
  if (prop.oneOf) return prop.oneOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
  if (prop.enum) return prop.enum.map((v) => ({ value: v, label: v }));
  return null;
}

export function initialValues(schema: ElicitationSchema | undefined): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const d = prop.default;
    if (prop.type === 'boolean') values[name] = typeof d === 'boolean' ? d : false;
    else if (prop.type === 'array') values[name] = Array.isArray(d) ? d.map(String) : [];
    else if (prop.type === 'number' || prop.type === 'integer') values[name] = typeof d === 'number' ? d : '';
    else values[name] = typeof d === 'string' ? d : '';
  }
  return values;
}

/** Problems with the values, by field, in words; empty when the form can be sent. */
export function validate(schema: ElicitationSchema | undefined, values: Record<string, FieldValue>): Record<string, string> {
  const problems: Record<string, string> = {};
  const required = new Set(schema?.required ?? []);
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const v = values[name];
    const empty = v === '' || v === undefined || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (required.has(name)) problems[name] = 'Required';
      continue;
    }
    if (prop.type === 'string' && typeof v === 'string') {
      if (prop.minLength !== undefined && v.length < prop.minLength) problems[name] = `At least ${prop.minLength} characters`;
      else if (prop.maxLength !== undefined && v.length > prop.maxLength) problems[name] = `At most ${prop.maxLength} characters`;
      else if (prop.pattern && !safeTest(prop.pattern, v)) problems[name] = 'Does not match the expected format';
      else if (prop.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(v)) problems[name] = 'An email address';
      else if (prop.format === 'uri' && !/^[a-z][a-z0-9+.-]*:/i.test(v)) problems[name] = 'A URI';
    }
    if ((prop.type === 'number' || prop.type === 'integer') && typeof v === 'number') {
      if (prop.type === 'integer' && !Number.isInteger(v)) problems[name] = 'A whole number';
      else if (prop.minimum !== undefined && v < prop.minimum) problems[name] = `At least ${prop.minimum}`;
      else if (prop.maximum !== undefined && v > prop.maximum) problems[name] = `At most ${prop.maximum}`;
    }
    if (prop.type === 'array' && Array.isArray(v)) {
      if (prop.minItems !== undefined && v.length < prop.minItems) problems[name] = `Choose at least ${prop.minItems}`;
      else if (prop.maxItems !== undefined && v.length > prop.maxItems) problems[name] = `Choose at most ${prop.maxItems}`;
    }
  }
  return problems;
}

/** The values to send: empty optional fields left out. */
export function contentOf(schema: ElicitationSchema | undefined, values: Record<string, FieldValue>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const name of Object.keys(schema?.properties ?? {})) {
    const v = values[name];
    if (v === '' || v === undefined) continue;
    out[name] = v;
  }
  return out;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true; // an agent's broken pattern must not block the user
  }
}
