/**
 * Import boundaries (DESIGN.md §2). Run by `npm run check:boundaries`, part of `npm test`.
 * A rule here fails the build; main/core/boundaries.test.ts proves each rule fires on a planted import.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'electron-only-in-shell',
      comment: "Only main/electron/ and preload/ may import 'electron' (no binary exists outside the app).",
      severity: 'error',
      from: { pathNot: '^(main/electron|preload|e2e/electron)/' },
      to: { path: '(^|/)node_modules/electron/|^electron$' },
    },
    {
      name: 'no-node-in-renderer-or-common',
      comment: 'renderer/ runs in a sandboxed browser and common/ everywhere: no Node built-ins.',
      severity: 'error',
      from: { path: '^(renderer|common)/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-talks-only-through-the-contract',
      comment: 'renderer/ reaches the core only through window.workbench or the WebSocket client.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(main|preload)/' },
    },
    {
      name: 'common-imports-nothing-above-it',
      comment: 'common/ is the bottom layer: it imports none of our other folders.',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(main|preload|renderer|e2e|scripts|bench)/' },
    },
    {
      name: 'core-is-host-agnostic',
      comment: 'main/core/ runs in Electron main, the web host, the CLI and tests: it imports no host.',
      severity: 'error',
      from: { path: '^main/core/' },
      to: { path: '^(main/(electron|web|cli)|preload|renderer)/' },
    },
    {
      name: 'preload-is-tiny',
      comment: 'preload/ exposes the contract and nothing else: electron and common/ only.',
      severity: 'error',
      from: { path: '^preload/' },
      to: { path: '^(main|renderer)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|\\.tsbuild|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
