import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startWebHost } from '../../web/web-host';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import type { CoreApi } from '../../core/api/core-api';
import { ExitCode, UsageError } from '../exit-codes';

const USAGE = `Usage: acp-workbench web [--port N] [--data-dir DIR] [--json]

Serve the workbench UI on http://127.0.0.1 and print the URL to open (it carries a one-time
access token; the first visit exchanges it for a cookie). Binds loopback only: for remote use,
forward the port over SSH (ssh -L N:127.0.0.1:N host). Stops on Ctrl-C.

Options:
  --port N        listen on port N (default: a free port)
  --renderer DIR  serve the UI from DIR (default: the built renderer next to this program)
  --json          print {"type":"listening","url":...,"port":N} instead of text`;

/** The built renderer sits next to the bundled CLI: dist/cli/../renderer. */
export function defaultRendererDir(): string {
  return resolve(__dirname, '..', 'renderer');
}

export const webCommand: CliCommand = {
  name: 'web',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { port: { type: 'string' }, renderer: { type: 'string' } }, io.env);
    const port = args.values.port === undefined ? 0 : Number(args.values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got "${args.values.port}"`);
    const rendererDir = args.values.renderer ? resolve(io.cwd, args.values.renderer) : defaultRendererDir();
    if (!existsSync(join(rendererDir, 'index.html'))) {
      io.stderr(`acp-workbench web: no built UI in ${rendererDir}. Run \`npm run build\` first.\n`);
      return ExitCode.usage;
    }
    // Agents and terminals a killed workbench left behind are stopped before we start new ones.
    // The core loads once the browser has the UI's first page (or an API socket asks, or nobody
    // came within a moment): the host listens first, serves the page, and bridges API sockets once
    // the core is there (start-up, issue #11; main/web/first-page.ts). The ACP SDK is not part of
    // the core's load: it follows a moment later, or with the first agent (core/acp/sdk-runtime.ts).
    let loading: Promise<CoreApi> | undefined;
    const load = (): Promise<CoreApi> => {
      loading = (async () => {
        const { reapLeftovers } = await import('../../core/acp/process-registry');
        const reaped = await reapLeftovers(args.paths.dataDir).catch(() => null);
        if (reaped?.killed.length) io.stderr(`Stopped ${reaped.killed.length} process(es) left behind by a workbench that did not exit cleanly.\n`);
        const { createCore } = await import('../../core/core');
        const core = createCore({ host: 'web', paths: args.paths });
        const { loadSdkLater } = await import('../../core/acp/sdk-runtime');
        loadSdkLater();
        return core;
      })();
      loading.catch((err: unknown) => io.stderr(`acp-workbench web: the core failed to start: ${err instanceof Error ? err.message : String(err)}\n`));
      return loading;
    };
    const host = await startWebHost({ core: load, rendererDir, port });
    if (args.values.json) io.stdout(`${JSON.stringify({ type: 'listening', url: host.url, port: host.port })}\n`);
    else io.stdout(`ACP Workbench is serving on ${host.url}\nOpen that URL in a browser. Press Ctrl-C to stop.\n`);

    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void host
          .close()
          .then(() => loading)
          .then((core) => core?.dispose(), () => undefined)
          .then(done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return ExitCode.ok;
  },
};
