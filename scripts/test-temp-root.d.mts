/** See test-temp-root.mjs. */
export function useTestTempRoot(label: string): { root: string; teardown: () => void };
