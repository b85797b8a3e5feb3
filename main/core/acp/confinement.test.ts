/**
 * File-system confinement corpus for `terminal/create`'s cwd (issue #12, item 5), beside the one
 * for fs/read_text_file and fs/write_text_file in fs-access.test.ts: `..` escapes, symlinks and a
 * symlink swapped in after a check, Windows drive and UNC paths, NUL bytes, very long paths — all
 * refused with -32602 and a reason, and no process started.
 */
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TerminalManager } from './terminals';
import { makeTmpLayout, type TmpLayout } from './test-support/fs-tmp';
import { loadSdk } from './sdk-runtime';

// The handlers throw the SDK's RequestError, which a connection loads at its start (sdk-runtime.ts).
beforeAll(() => loadSdk());

const sessionId = 's1';
let t: TmpLayout;
let manager: TerminalManager;
let started: number[];

beforeEach(() => {
  t = makeTmpLayout('acpwb-confine-');
  started = [];
  manager = new TerminalManager({ roots: { cwd: t.root }, onProcessStarted: (pid) => started.push(pid) });
});
afterEach(async () => {
  await manager.disposeAll();
  t.cleanup();
});

async function refusal(cwd: string): Promise<{ code: number; reason: string; message: string }> {
  const err = await manager.create({ sessionId, command: 'pwd', cwd }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `cwd ${JSON.stringify(cwd.slice(0, 80))} was accepted`).toBeInstanceOf(RequestError);
  const e = err as RequestError;
  return { code: e.code, reason: (e.data as { reason: string }).reason, message: e.message };
}

describe('terminal/create cwd corpus', () => {
  const cases: Array<[string, () => string, string]> = [
    ['a ../ escape', () => `${t.root}/../outside`, 'outside_root'],
    ['a deeper ../ escape', () => `${t.root}/a/../../outside`, 'outside_root'],
    ['a NUL byte', () => `${t.root}/a\0b`, 'nul_byte'],
    ['a Windows drive path', () => 'C:\\Windows', 'windows_path'],
    ['a UNC path', () => '\\\\server\\share', 'unc_path'],
    ['an overlong path', () => `${t.root}/${'d/'.repeat(2100)}x`, 'too_long'],
    ['an overlong name', () => `${t.root}/${'n'.repeat(300)}`, 'too_long'],
  ];
  for (const [what, make, reason] of cases) {
    it(`refuses ${what}`, async () => {
      const r = await refusal(make());
      expect(r.code).toBe(-32602);
      expect(r.reason).toBe(reason);
      expect(r.message.length).toBeGreaterThan(10);
      expect(started).toEqual([]);
    });
  }

  it('refuses a folder swapped for a symlink out after an earlier check passed', async () => {
    const inside = path.join(t.root, 'work');
    mkdirSync(inside);
    const ok = await manager.create({ sessionId, command: 'pwd', cwd: inside });
    await manager.waitForExit({ sessionId, terminalId: ok.terminalId });
    renameSync(inside, path.join(t.root, 'work-old'));
    symlinkSync(t.outside, inside);
    const r = await refusal(inside);
    expect(r).toMatchObject({ code: -32602, reason: 'outside_root' });
    expect(started).toHaveLength(1);
  });
});
