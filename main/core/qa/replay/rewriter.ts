/**
 * Rewrites what the recorded agent says so it fits the live session: the recorded cwd rebased
 * onto the new one in every string (paths in diffs, locations, fs and terminal requests, URIs),
 * and ids the client chose differently (its session id for a load, its terminal ids) mapped from
 * the recorded value to the live one.
 */
type JsonValue = unknown;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Rewriter {
  private readonly values = new Map<string, string>();
  private readonly folders: Array<{ from: string; pattern: RegExp; to: string }> = [];

  /** A whole string value equal to `recorded` becomes `live`. */
  mapValue(recorded: string, live: string): void {
    if (recorded !== live) this.values.set(recorded, live);
  }

  /** `from` as a path prefix (followed by a separator, punctuation or the end) becomes `to`, anywhere in a string. */
  rebase(from: string, to: string): void {
    const source = from.replace(/[\\/]+$/, '');
    if (source === '' || source === to.replace(/[\\/]+$/, '') || this.folders.some((f) => f.from === source)) return;
    this.folders.push({ from: source, pattern: new RegExp(`${escape(source)}(?=$|[\\s/\\\\"'\`)\\]},;:]|\\.(?:$|\\s))`, 'g'), to: to.replace(/[\\/]+$/, '') });
    // Longest first, so a nested folder wins over its parent.
    this.folders.sort((a, b) => b.from.length - a.from.length);
  }

  apply<T extends JsonValue>(value: T): T {
    return this.rewrite(value) as T;
  }

  private rewrite(value: JsonValue): JsonValue {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, JsonValue> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.rewrite(v);
      return out;
    }
    return value;
  }

  private string(s: string): string {
    const mapped = this.values.get(s);
    if (mapped !== undefined) return mapped;
    let out = s;
    for (const { pattern, to } of this.folders) out = out.replace(pattern, to);
    return out;
  }
}
