/** Replaced at build time (esbuild/vite `define`) and in tests (vitest `define`) with package.json's version. */
declare const __WORKBENCH_VERSION__: string;
