/** JSON as it comes off the wire: nothing about its shape is trusted until checked. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of an untrusted object, or undefined when absent or of another type. */
export function str(obj: JsonObject | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(obj: JsonObject | undefined, key: string): number | undefined {
  const v = obj?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function obj(parent: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = parent?.[key];
  return isJsonObject(v) ? v : undefined;
}

export function arr(parent: JsonObject | undefined, key: string): JsonValue[] | undefined {
  const v = parent?.[key];
  return Array.isArray(v) ? v : undefined;
}
