import { resolve } from 'node:path';
import { loadReplay, ReplaySelectionError, runReplay } from '../../core/qa/replay/run-replay';
import type { ReplayDelay } from '../../core/qa/replay/replay-agent';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { ExitCode, UsageError } from '../exit-codes';

const USAGE = `Usage: acp-workbench replay TRACE [--session ID] [--delay recorded|none]

Speak ACP on stdin/stdout as the agent recorded in TRACE did, to any client: the client's requests
are matched by method and order and answered with the recorded results or errors (ids rewritten to
the client's), and the agent's notifications and requests are sent in recorded order. The recorded
session folder is rebased onto the folder of the client's session/new in every string, and ids the
client chooses (session ids it loads, terminal ids) are mapped.

When the client diverges (another method, another permission answer, an error where the recording
has a result, more requests after the recording ends) the requests it is waiting on are answered with
an error naming the first mismatch, the same message goes to stderr, and replay exits 1.

Use it as an agent command:  acp-workbench run --agent-cmd "acp-workbench replay TRACE" --prompt ...

Options:
  --session ID          play one session of the trace (workbench or agent session id); default: the
                        whole connection
  --delay recorded|none wait between messages as recorded (default), or send at once

Exit codes: 0 the client played along (or closed the connection early), 1 it diverged, 2 usage
error or unreadable trace; a recorded crash exits with the recorded code.`;

export const replayCommand: CliCommand = {
  name: 'replay',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { session: { type: 'string' }, delay: { type: 'string' } }, io.env);
    const [file, ...extra] = args.positionals;
    if (file === undefined) throw new UsageError('missing TRACE file');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const delay = (args.values.delay ?? 'recorded') as ReplayDelay;
    if (delay !== 'recorded' && delay !== 'none') throw new UsageError(`--delay must be recorded or none, got "${args.values.delay}"`);
    let loaded;
    try {
      loaded = await loadReplay(resolve(io.cwd, file), args.values.session);
    } catch (err) {
      const message = err instanceof ReplaySelectionError ? err.message : `cannot read ${file}: ${(err as Error).message}`;
      io.stderr(`acp-workbench replay: ${message}\n`);
      return ExitCode.usage;
    }
    for (const c of loaded.corrupt) io.stderr(`acp-workbench replay: ${file}:${c.line}: ${c.torn ? 'torn' : 'corrupt'} line skipped: ${c.reason}\n`);
    if (loaded.script.skippedOversize.length) {
      io.stderr(`acp-workbench replay: ${file}: lines ${loaded.script.skippedOversize.join(', ')} were over the size limit and not recorded; they are not replayed\n`);
    }
    try {
      const code = await runReplay(loaded.script, process.stdin, { writeLine: (line) => io.stdout(`${line}\n`), stderr: io.stderr }, delay);
      return code as ExitCode;
    } finally {
      // Nothing more is read: let the process end even if the client keeps its end open.
      process.stdin.destroy();
    }
  },
};
