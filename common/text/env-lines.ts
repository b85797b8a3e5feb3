/** "KEY=VALUE" lines (blank lines ignored) as an environment; a line without "=" is named in the error. */
export function parseEnvLines(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`Environment lines are KEY=VALUE; "${line}" is not`);
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
