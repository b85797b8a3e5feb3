import { join } from 'node:path';
import { defaultCacheDir, runWithCodeCache } from './code-cache';
import { followLauncher, relaunch, relaunchNodeArgs } from './heap-relaunch';

/**
 * The `acp-workbench` executable (dist/cli/acp-workbench.cjs): runs the CLI bundle beside it
 * (dist/cli/workbench-cli.cjs, built from main.ts) through V8's code cache, so a start does not
 * compile the whole bundle again. ACP_WORKBENCH_CODE_CACHE=0 turns the cache off. `web` runs in a
 * second process started with a smaller young generation (heap-relaunch.ts; the launcher then only
 * waits for it and ends as it ends).
 */
const bundle = join(__dirname, 'workbench-cli.cjs');
const run = () => runWithCodeCache(bundle, process.env.ACP_WORKBENCH_CODE_CACHE === '0' ? null : defaultCacheDir());
const argv = process.argv.slice(2);
const nodeArgs = followLauncher() ? null : relaunchNodeArgs(argv, process.execArgv, process.env);
if (nodeArgs) relaunch(__filename, argv, nodeArgs, run);
else run();
