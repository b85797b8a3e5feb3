// The Node options the product starts the core's process with, so the benchmarks' core-worker runs
// the core as the product does: `acp-workbench web` relaunches itself with these
// (main/cli/heap-relaunch.ts, YOUNG_GENERATION_FLAG; docs/decisions.md). The Electron app's main
// process cannot take them (V8 flags there must be on Electron's own command line) — see decisions.md.
export const CORE_NODE_ARGS = ['--max-semi-space-size=8'];
