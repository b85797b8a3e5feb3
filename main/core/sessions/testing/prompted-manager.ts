/**
 * For tests: a session manager over a throw-away data folder whose `session/patches` events are
 * recorded, with one fixture-agent session (a real subprocess) that has answered one prompt.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionPatchesEvent } from '../../../../common/api/session-api-types';
import { fixtureArgs, tempBase } from '../../workspace/testing/git-repo';
import { SessionManager } from '../session-manager';

export async function promptedManager(prefix: string, scenario: object, cleanups: Array<() => Promise<void> | void>) {
  const t = tempBase(prefix);
  cleanups.push(t.cleanup);
  const cwd = join(t.base, 'ws');
  mkdirSync(cwd);
  const batches: SessionPatchesEvent[] = [];
  const manager = new SessionManager({
    paths: { dataDir: join(t.base, 'data'), configDir: join(t.base, 'config') },
    host: 'test',
    emit: (name, payload) => void (name === 'session/patches' && batches.push(payload as SessionPatchesEvent)),
  });
  cleanups.push(() => manager.dispose());
  const { sessionId } = await manager.start({ agent: { command: process.execPath, args: fixtureArgs(scenario) }, cwd, policy: 'all' });
  await manager.prompt(sessionId, [{ type: 'text', text: 'go' }]);
  return { manager, sessionId, batches };
}
