/**
 * The index's fold reads a long trace line as its skeleton (line-skeleton.ts): the long texts the
 * fold only cuts into words — under `text`, `output` and `newText`, the leaves of a `rawOutput`, of
 * at least SKELETON_MIN_STRING bytes — are taken out of the line and stand as markers in what is
 * decoded and parsed; their words are counted straight from the line's bytes (term-counter.ts
 * `addJson`). Those texts are ≈ 80 % of a trace's bytes: UTF-8 decoding and JSON.parse no longer go
 * over them, and no string is made of them.
 *
 * The same result as parsing the line whole:
 * - the line is valid UTF-8 and the scanner follows it (else it is read as before), and a skeleton
 *   that is not a record sends the line the old way too (tail-reader.ts);
 * - the skeleton parses to the line's values but for the markers, if each string taken out is what
 *   JSON.parse accepts; nothing is checked before — a string is checked as it is read, byte by byte
 *   by `addJson`, or by JSON.parse when it is decoded, and, once the record has been folded, each
 *   string the fold did not read is decoded (`check`). One that JSON.parse rejects (a raw control
 *   character, a bad escape: the line was corrupt) throws `NotAsParsed`, and the file is folded again
 *   from its start without skeletons (fold-file.ts) — what was counted or summed from it is dropped;
 * - every place of the fold that reads a string taken out resolves its marker: the text sink
 *   (doc-terms.ts `TraceText`: counted from the bytes, or decoded for a streamed piece, which is
 *   joined to the next one), and a prompt's text blocks, decoded before the record is folded
 *   (`decodePrompt`: the first prompt names the session).
 * A marker's texts are views of the bytes read: valid while its record is handed on, not after.
 */
import { isJsonObject, type JsonObject } from '../../../common/trace/json';
import type { TraceRecord } from '../../../common/trace/records';
import { JsonSkeleton } from './line-skeleton';
import type { TermCounter } from './term-counter';

/** A line had a string JSON.parse rejects, found after the skeleton was parsed: fold the file again without skeletons. */
export class NotAsParsed extends Error {
  constructor() {
    super('fold-skeleton: a long string of a line is not valid JSON; the file is folded again whole');
  }
}

/** A long string taken out of the line: its content `bytes[start, end)` as it is in the file. */
export class FoldText {
  /** Read (counted or decoded), so checked. */
  used = false;

  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  /** Counts its words (as `counter.add` of the decoded text would); throws NotAsParsed when it is not valid JSON. */
  count(counter: TermCounter, weight: number, bit: number): void {
    this.used = true;
    if (!counter.addJson(this.bytes, this.start, this.end, weight, bit)) throw new NotAsParsed();
  }

  /** The decoded text, as JSON.parse of the line has it; throws NotAsParsed when it is not valid JSON. */
  text(): string {
    this.used = true;
    try {
      return JSON.parse(`"${this.bytes.toString('utf8', this.start, this.end)}"`) as string;
    } catch {
      throw new NotAsParsed();
    }
  }
}

export class FoldSkeleton extends JsonSkeleton<FoldText> {
  protected take(buf: Buffer, start: number, end: number): FoldText {
    return new FoldText(buf, start, end);
  }

  /** The decoded text a marker stands for; undefined when `text` is no marker of the line being read. */
  decoded(text: string): string | undefined {
    return this.resolve(text)?.text();
  }

  /** The record of the line being read, with a prompt's text blocks decoded (only `session/prompt` requests have them where the fold reads a text). */
  decodePrompt(record: TraceRecord): void {
    if (this.texts.length === 0 || record.kind !== 'wire' || record.dir !== 'out' || record.msg.method !== 'session/prompt') return;
    const params = record.msg.params;
    if (!isJsonObject(params) || !Array.isArray(params.prompt)) return;
    for (const block of params.prompt) if (isJsonObject(block)) this.decodeText(block);
  }

  private decodeText(block: JsonObject): void {
    if (typeof block.text === 'string') block.text = this.decoded(block.text) ?? block.text;
  }

  /** After the line's record was folded: the strings taken out that the fold did not read are checked (decoded); throws NotAsParsed. */
  check(): void {
    for (const t of this.texts) if (!t.used) t.text();
  }
}
