import { runCli } from './cli';

/** The `acp-workbench` executable (bundled to dist/cli/acp-workbench.cjs). */
async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stdoutBytes: (b) => process.stdout.write(b),
    drained: () => new Promise<void>((resolve) => process.stdout.once('drain', resolve)),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stdin.isTTY),
  });
  // Commands that keep serving (web) never resolve; the others end here.
  process.exitCode = code;
}

main().catch((err: unknown) => {
  process.stderr.write(`acp-workbench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 70;
});
