import { join } from 'node:path';
import { defaultCacheDir, runWithCodeCache } from './code-cache';

/**
 * The `acp-workbench` executable (dist/cli/acp-workbench.cjs): runs the CLI bundle beside it
 * (dist/cli/workbench-cli.cjs, built from main.ts) through V8's code cache, so a start does not
 * compile the whole bundle again. ACP_WORKBENCH_CODE_CACHE=0 turns the cache off.
 */
const bundle = join(__dirname, 'workbench-cli.cjs');
runWithCodeCache(bundle, process.env.ACP_WORKBENCH_CODE_CACHE === '0' ? null : defaultCacheDir());
