/**
 * Where a JSON text breaks, as line and column. V8's JSON.parse messages in Node 20 often give no
 * position at all ("Unexpected token '}', ... is not valid JSON"), and a user fixing settings.json
 * by hand needs the line. A strict scanner (RFC 8259) that stops at the first error.
 */

export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw Object.assign(new Error(message), { offset: this.pos });
  }

  ws(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos]!)) this.pos++;
  }

  describeHere(): string {
    if (this.pos >= this.text.length) return 'unexpected end of file';
    return `unexpected ${JSON.stringify(this.text[this.pos])}`;
  }

  value(): void {
    this.ws();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c !== undefined && /[-0-9]/.test(c)) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail(`${this.describeHere()} where a value was expected`);
  }

  object(): void {
    this.pos++;
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') this.fail(`${this.describeHere()} where a "key" was expected (trailing comma?)`);
      this.string();
      this.ws();
      if (this.text[this.pos] !== ':') this.fail(`${this.describeHere()} where ":" was expected`);
      this.pos++;
      this.value();
      this.ws();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.text[this.pos] === '}') {
        this.pos++;
        return;
      }
      this.fail(`${this.describeHere()} where "," or "}" was expected`);
    }
  }

  array(): void {
    this.pos++;
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.value();
      this.ws();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.ws();
        if (this.text[this.pos] === ']') this.fail('unexpected "]" after a comma (trailing comma?)');
        continue;
      }
      if (this.text[this.pos] === ']') {
        this.pos++;
        return;
      }
      this.fail(`${this.describeHere()} where "," or "]" was expected`);
    }
  }

  string(): void {
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const e = this.text[this.pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) this.fail('bad \\u escape in a string');
          this.pos += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail('bad escape in a string');
        this.pos += 2;
        continue;
      }
      if (c < ' ') this.fail('control character (a raw line break?) inside a string');
      this.pos++;
    }
    this.fail('unterminated string');
  }

  number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!m) this.fail('bad number');
    this.pos += m[0].length;
  }
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.value();
    scanner.ws();
    if (scanner.pos < text.length) scanner.fail(`${scanner.describeHere()} after the end of the document`);
    return undefined;
  } catch (err) {
    const offset = (err as { offset?: number }).offset ?? 0;
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, message: (err as Error).message };
  }
}
