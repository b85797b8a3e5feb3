/**
 * Terminal output → styled spans: SGR colours and attributes are kept, every other escape
 * sequence (cursor moves, OSC titles and hyperlinks, charset switches) and control character is
 * dropped, CRLF becomes LF, and a bare carriage return rewrites the current line (progress bars). The result is
 * rendered as text in spans, never as HTML. Pure: no DOM, tested in Node.
 */

/** 0–15: the theme's palette (CSS classes); 16–255: xterm's cube and greys; or an rgb() string. */
export type AnsiColor = number | string;

export interface AnsiStyle {
  fg?: AnsiColor;
  bg?: AnsiColor;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
}

export interface AnsiSpan {
  text: string;
  /** Absent for the default style. */
  style?: AnsiStyle;
}

// ESC [ params intermediates final | 8-bit CSI | OSC ... (BEL | ESC \) | other ESC sequences | controls
const TOKEN = /(?:\u001b\[|\u009b)([0-?]*)([ -/]*)([@-~])|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|\r|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function isEmpty(s: AnsiStyle): boolean {
  for (const k in s) if (s[k as keyof AnsiStyle] !== undefined && s[k as keyof AnsiStyle] !== false) return false;
  return true;
}

/** Applies one SGR parameter list to a style; returns a new object when anything changed. */
export function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  let s: AnsiStyle = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) s = {};
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 7) s.inverse = true;
    else if (c === 9) s.strike = true;
    else if (c === 22) s.bold = s.dim = undefined;
    else if (c === 23) s.italic = undefined;
    else if (c === 24) s.underline = undefined;
    else if (c === 27) s.inverse = undefined;
    else if (c === 29) s.strike = undefined;
    else if (c >= 30 && c <= 37) s.fg = c - 30;
    else if (c === 39) s.fg = undefined;
    else if (c >= 40 && c <= 47) s.bg = c - 40;
    else if (c === 49) s.bg = undefined;
    else if (c >= 90 && c <= 97) s.fg = c - 90 + 8;
    else if (c >= 100 && c <= 107) s.bg = c - 100 + 8;
    else if (c === 38 || c === 48) {
      const mode = codes[i + 1];
      let color: AnsiColor | undefined;
      if (mode === 5 && codes[i + 2] !== undefined) {
        const n = codes[i + 2]!;
        if (n >= 0 && n <= 255) color = n;
        i += 2;
      } else if (mode === 2 && codes[i + 4] !== undefined) {
        const [r, g, b] = [codes[i + 2]!, codes[i + 3]!, codes[i + 4]!].map((v) => Math.max(0, Math.min(255, v | 0)));
        color = `rgb(${r}, ${g}, ${b})`;
        i += 4;
      } else {
        i = codes.length; // malformed: ignore the rest
      }
      if (color !== undefined) {
        if (c === 38) s.fg = color;
        else s.bg = color;
      }
    }
  }
  return isEmpty(s) ? {} : s;
}

/** Parses terminal output into spans. */
export function parseAnsi(text: string): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  let style: AnsiStyle = {};
  let at = 0;
  const emit = (chunk: string) => {
    if (!chunk) return;
    const last = spans[spans.length - 1];
    const st = isEmpty(style) ? undefined : style;
    if (last && last.style === st) last.text += chunk;
    else spans.push(st ? { text: chunk, style: st } : { text: chunk });
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    emit(text.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[3] === 'm' && m[2] === '' && !/[<=>?]/.test(m[1]!)) {
      const next = applySgr(style, m[1]!);
      style = isEmpty(next) ? {} : next;
    } else if (m[0] === '\r' && text[at] !== '\n') {
      eraseCurrentLine(spans);
    }
  }
  emit(text.slice(at));
  return spans;
}

/** A bare CR: what follows overwrites the line, so drop what the line had so far. */
function eraseCurrentLine(spans: AnsiSpan[]): void {
  while (spans.length > 0) {
    const last = spans[spans.length - 1]!;
    const nl = last.text.lastIndexOf('\n');
    if (nl !== -1) {
      last.text = last.text.slice(0, nl + 1);
      return;
    }
    spans.pop();
  }
}

/** Removes every escape sequence and control character (for plain-text uses: copy, search). */
export function stripAnsi(text: string): string {
  return parseAnsi(text)
    .map((s) => s.text)
    .join('');
}

/** xterm's 256-colour palette above the 16 theme colours. */
export function xterm256(n: number): string {
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v}, ${v}, ${v})`;
  }
  const i = n - 16;
  const steps = [0, 95, 135, 175, 215, 255];
  return `rgb(${steps[Math.floor(i / 36) % 6]}, ${steps[Math.floor(i / 6) % 6]}, ${steps[i % 6]})`;
}

/**
 * The start of the last `maxLines` lines (at most `maxChars` characters) of `text`, scanning back
 * from the end: a live terminal re-renders only its visible tail, whatever the total output.
 */
export function tailStart(text: string, maxLines: number, maxChars: number): { start: number; hiddenLines: boolean } {
  const floor = Math.max(0, text.length - maxChars);
  let pos = text.length;
  // A trailing newline does not start a visible line.
  if (pos > 0 && text[pos - 1] === '\n') pos--;
  for (let lines = 0; lines < maxLines; lines++) {
    const nl = text.lastIndexOf('\n', pos - 1);
    if (nl < floor) return floor === 0 ? { start: 0, hiddenLines: false } : { start: nextLine(text, floor), hiddenLines: true };
    pos = nl;
  }
  return { start: pos + 1, hiddenLines: true };
}

function nextLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? from : nl + 1;
}
