/**
 * The demo agent shipped with the app: the scripted fixture agent playing the demo scenario, so
 * a new user can try every screen without installing or paying for a real agent.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { AgentDefinition } from '../types';
import { DEMO_AGENT_ID } from './builtins';

/**
 * The build's `dist/` folder. Bundled, this code runs from `dist/cli/` or `dist/main/` (one level
 * below dist); from sources (tests), it is `<repo>/dist` next to package.json.
 */
export function defaultDistDir(from: string = __dirname): string {
  const parent = resolve(from, '..');
  if (basename(parent) === 'dist') return parent;
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist');
    const up = dirname(dir);
    if (up === dir) return parent;
    dir = up;
  }
}

export interface DemoPaths {
  script: string;
  scenario: string;
}

export function demoAgentPaths(distDir: string = defaultDistDir()): DemoPaths {
  return {
    script: join(distDir, 'fixtures', 'fixture-agent.cjs'),
    scenario: join(distDir, 'fixtures', 'scenarios', 'demo.json'),
  };
}

export function demoAgent(distDir: string = defaultDistDir()): AgentDefinition {
  const paths = demoAgentPaths(distDir);
  return {
    id: DEMO_AGENT_ID,
    aliases: [],
    name: 'Demo agent',
    description: 'A scripted agent shipped with the workbench: plays a fixed demo conversation, needs no account or network.',
    source: 'demo',
    launch: [{ kind: 'node-script', script: paths.script, args: ['--scenario', paths.scenario] }],
    env: {},
    envVars: [],
    install: { text: 'Shipped with the workbench; rebuild the app (`npm run build`) if its files are missing.' },
    quirks: [],
    cwd: 'session',
    disabled: false,
  };
}
