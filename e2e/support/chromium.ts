import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

/** Flags that keep Debian's Chromium quiet on a machine with no network but loopback. */
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Playwright's own Chromium where it is installed, else the system's, else a failure that says how
 * to get one. `PLAYWRIGHT_CHROMIUM` names an executable explicitly.
 */
export function chromiumExecutable(): string {
  const explicit = process.env.PLAYWRIGHT_CHROMIUM;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`PLAYWRIGHT_CHROMIUM=${explicit} does not exist`);
    return explicit;
  }
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright's browsers are not installed: fall through to the system's.
  }
  const system = SYSTEM_CHROMIUM.find((p) => existsSync(p));
  if (system) return system;
  throw new Error(
    'No Chromium for the e2e tests. Install one: `npx playwright install chromium` (with internet), ' +
      'or `apt-get install -y chromium` (Debian), or set PLAYWRIGHT_CHROMIUM to a Chromium executable.',
  );
}

export function chromiumLaunchOptions(): LaunchOptions {
  return { executablePath: chromiumExecutable(), args: QUIET_FLAGS };
}
