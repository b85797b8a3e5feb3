import { runCli } from './cli';

/** The CLI (bundled to dist/cli/workbench-cli.cjs, run by the `acp-workbench` executable, launcher.ts). */
async function main(): Promise<void> {
  // A reader that stops early (`… | head`) closes the pipe: end quietly, as a Unix tool does on
  // SIGPIPE (Node ignores the signal and reports EPIPE on the stream instead). The agents see
  // their stdin end and stop; anything left behind is reaped at the next start.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stdoutBytes: (b) => process.stdout.write(b),
    drained: () => new Promise<void>((resolve) => process.stdout.once('drain', resolve)),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stdin.isTTY),
    stderrIsTerminal: Boolean(process.stderr.isTTY),
  });
  // Commands that keep serving (web) never resolve; the others end here.
  process.exitCode = code;
}

main().catch((err: unknown) => {
  process.stderr.write(`acp-workbench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 70;
});
