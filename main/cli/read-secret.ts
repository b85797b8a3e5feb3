/**
 * Read one secret value from stdin, never from argv (which lands in shell history and `ps`).
 * At a terminal: a prompt on stderr and the typed characters not echoed. From a pipe: exactly one
 * line (the trailing newline dropped); more lines are refused rather than guessed at.
 */

/** What a secret was read from, for the messages around it. */
export type SecretSource = 'terminal' | 'pipe';

export class SecretInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretInputError';
  }
}

/** The part of a TTY stream the hidden prompt needs (process.stdin when it is a terminal). */
export interface TerminalInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACE = new Set(['\u007f', '\b']);

/** Prompt on `promptOut` and read a line from a terminal without echoing it. Ctrl+C cancels. */
export function readHiddenLine(input: TerminalInput, prompt: string, promptOut: (text: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    // Raw mode before the prompt: whatever is typed once the prompt shows is never echoed.
    input.setRawMode?.(true);
    promptOut(prompt);
    let value = '';
    input.setEncoding('utf8');
    const finish = (err?: Error) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      promptOut('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === CTRL_C) return finish(new SecretInputError('cancelled (Ctrl+C); nothing was stored'));
        if (ch === CTRL_D) return value === '' ? finish(new SecretInputError('no value typed (Ctrl+D); nothing was stored')) : finish();
        if (ch === CTRL_U) value = '';
        else if (BACKSPACE.has(ch)) value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    const onEnd = () => finish();
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

/** All of a piped stdin, then its one line. */
export async function readPipedLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  input.setEncoding('utf8');
  for await (const chunk of input) text += chunk as string;
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  if (lines.length > 1) {
    throw new SecretInputError(`stdin had ${lines.length} lines; pipe only the value, on one line (e.g. printf '%s' "$KEY" | ...)`);
  }
  return lines[0]!;
}

/** The value from stdin, read as its kind (terminal or pipe) asks; an empty value is an error. */
export async function readSecretFromStdin(
  input: TerminalInput,
  prompt: string,
  promptOut: (text: string) => void,
): Promise<{ value: string; source: SecretSource }> {
  const source: SecretSource = input.isTTY ? 'terminal' : 'pipe';
  const value = source === 'terminal' ? await readHiddenLine(input, prompt, promptOut) : await readPipedLine(input);
  if (value === '') {
    throw new SecretInputError(
      source === 'terminal' ? 'the value is empty; nothing was stored' : "stdin was empty; pipe the value in, e.g. printf '%s' \"$KEY\" | acp-workbench agents secrets ID set NAME",
    );
  }
  return { value, source };
}
