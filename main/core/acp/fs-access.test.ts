import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FsAccess, sliceLines, type FsRefusal, type FsWrite } from './fs-access';
import { makeTmpLayout, type TmpLayout } from './test-support/fs-tmp';
import { loadSdk } from './sdk-runtime';

// The handlers throw the SDK's RequestError, which a connection loads at its start (sdk-runtime.ts).
beforeAll(() => loadSdk());

let t: TmpLayout;
let writes: FsWrite[];
let refusals: FsRefusal[];

function access(extra: Partial<ConstructorParameters<typeof FsAccess>[0]> = {}): FsAccess {
  return new FsAccess({
    roots: { cwd: t.root },
    onWrite: (w) => writes.push(w),
    onRefusal: (r) => refusals.push(r),
    ...extra,
  });
}

async function rejection(p: Promise<unknown>): Promise<RequestError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RequestError);
  return err as RequestError;
}

function reasonOf(err: RequestError): unknown {
  return (err.data as { reason?: unknown }).reason;
}

const sessionId = 's1';

beforeEach(() => {
  t = makeTmpLayout();
  writes = [];
  refusals = [];
  writeFileSync(path.join(t.outside, 'secret.txt'), 'outside secret\n');
});
afterEach(() => t.cleanup());

describe('fs/read_text_file', () => {
  it('reads a whole file, or the lines asked for', async () => {
    const file = path.join(t.root, 'a.txt');
    writeFileSync(file, 'one\ntwo\r\nthree\nfour');
    const fs = access();
    expect(await fs.readTextFile({ sessionId, path: file })).toEqual({ content: 'one\ntwo\r\nthree\nfour' });
    expect((await fs.readTextFile({ sessionId, path: file, line: 2, limit: 2 })).content).toBe('two\r\nthree\n');
    expect((await fs.readTextFile({ sessionId, path: file, line: 3 })).content).toBe('three\nfour');
    expect((await fs.readTextFile({ sessionId, path: file, line: 4, limit: 10 })).content).toBe('four');
    expect((await fs.readTextFile({ sessionId, path: file, line: 9 })).content).toBe('');
    expect((await fs.readTextFile({ sessionId, path: file, line: null, limit: 1 })).content).toBe('one\n');
  });

  it('rejects line 0 and negative limits as invalid params', async () => {
    const file = path.join(t.root, 'a.txt');
    writeFileSync(file, 'x\n');
    const err = await rejection(access().readTextFile({ sessionId, path: file, line: 0 }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/line must be an integer >= 1/);
    expect((await rejection(access().readTextFile({ sessionId, path: file, limit: -1 }))).code).toBe(-32602);
  });

  it('reads through a symlink that stays inside the root', async () => {
    writeFileSync(path.join(t.root, 'real.txt'), 'real\n');
    symlinkSync(path.join(t.root, 'real.txt'), path.join(t.root, 'alias.txt'));
    expect((await access().readTextFile({ sessionId, path: path.join(t.root, 'alias.txt') })).content).toBe('real\n');
  });

  it('reads files in additional directories', async () => {
    const fs = access({ roots: { cwd: t.root, additionalDirectories: [t.outside] } });
    expect((await fs.readTextFile({ sessionId, path: path.join(t.outside, 'secret.txt') })).content).toBe('outside secret\n');
  });

  it('answers resource-not-found for a missing file', async () => {
    const err = await rejection(access().readTextFile({ sessionId, path: path.join(t.root, 'nope.txt') }));
    expect(err.code).toBe(-32002);
    expect(reasonOf(err)).toBe('not_found');
    expect(refusals).toEqual([expect.objectContaining({ method: 'fs/read_text_file', reason: 'not_found' })]);
  });

  it('refuses folders and FIFOs without blocking on them', async () => {
    mkdirSync(path.join(t.root, 'dir'));
    expect(reasonOf(await rejection(access().readTextFile({ sessionId, path: path.join(t.root, 'dir') })))).toBe(
      'not_a_file',
    );
    const fifo = path.join(t.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(reasonOf(await rejection(access().readTextFile({ sessionId, path: fifo })))).toBe('not_a_file');
  });

  it('refuses files over the size cap with the sizes in the error', async () => {
    const file = path.join(t.root, 'big.txt');
    writeFileSync(file, 'x'.repeat(2000));
    const err = await rejection(access({ maxFileBytes: 1000 }).readTextFile({ sessionId, path: file }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ reason: 'too_large', size: 2000, limit: 1000 });
    expect(err.message).toMatch(/1000-byte limit/);
  });

  it('refuses unknown sessions when roots are looked up per session', async () => {
    const fs = access({ roots: (id) => (id === 'known' ? { cwd: t.root } : undefined) });
    writeFileSync(path.join(t.root, 'a.txt'), 'a');
    expect((await fs.readTextFile({ sessionId: 'known', path: path.join(t.root, 'a.txt') })).content).toBe('a');
    const err = await rejection(fs.readTextFile({ sessionId: 'other', path: path.join(t.root, 'a.txt') }));
    expect(reasonOf(err)).toBe('unknown_session');
  });
});

describe('paths that escape or are malformed', () => {
  const cases: Array<[string, () => string, string]> = [
    ['a relative path', () => 'root/a.txt', 'relative'],
    ['a ../ escape', () => `${t.root}/../outside/secret.txt`, 'outside_root'],
    ['a deeper ../ escape', () => `${t.root}/sub/../../outside/secret.txt`, 'outside_root'],
    ['a NUL byte', () => `${t.root}/a\0.txt`, 'nul_byte'],
    ['a Windows drive path', () => 'C:\\x', 'windows_path'],
    ['a UNC path', () => '\\\\server\\share\\x', 'unc_path'],
    ['an overlong path', () => `${t.root}/${'d/'.repeat(2100)}x`, 'too_long'],
    ['an overlong name', () => `${t.root}/${'n'.repeat(300)}`, 'too_long'],
  ];

  for (const [what, make, reason] of cases) {
    it(`refuses ${what} for reads and writes`, async () => {
      const fs = access();
      const p = make();
      const r = await rejection(fs.readTextFile({ sessionId, path: p }));
      expect(reasonOf(r)).toBe(reason);
      expect(r.code).toBe(-32602);
      const w = await rejection(fs.writeTextFile({ sessionId, path: p, content: 'pwned' }));
      expect(reasonOf(w)).toBe(reason);
      expect(refusals.map((x) => [x.method, x.reason])).toEqual([
        ['fs/read_text_file', reason],
        ['fs/write_text_file', reason],
      ]);
      expect(readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
      expect(writes).toEqual([]);
    });
  }

  it('explains an outside path with the allowed roots in data', async () => {
    const p = path.join(t.outside, 'secret.txt');
    const err = await rejection(access().readTextFile({ sessionId, path: p }));
    expect(err.data).toMatchObject({ reason: 'outside_root', path: p, roots: [t.root] });
    expect(err.message).toContain(t.root);
  });

  it('allows ../ that stays inside the root', async () => {
    mkdirSync(path.join(t.root, 'sub'));
    writeFileSync(path.join(t.root, 'a.txt'), 'a');
    expect((await access().readTextFile({ sessionId, path: `${t.root}/sub/../a.txt` })).content).toBe('a');
  });

  it('refuses a symlinked folder in the middle that points outside', async () => {
    symlinkSync(t.outside, path.join(t.root, 'link'));
    const fs = access();
    const r = await rejection(fs.readTextFile({ sessionId, path: path.join(t.root, 'link', 'secret.txt') }));
    expect(r.data).toMatchObject({ reason: 'outside_root', realPath: path.join(t.outside, 'secret.txt') });
    const w = await rejection(fs.writeTextFile({ sessionId, path: path.join(t.root, 'link', 'new', 'x.txt'), content: 'x' }));
    expect(reasonOf(w)).toBe('outside_root');
    expect(existsSync(path.join(t.outside, 'new'))).toBe(false);
  });

  it('refuses a final symlink that points outside', async () => {
    symlinkSync(path.join(t.outside, 'secret.txt'), path.join(t.root, 's.txt'));
    const fs = access();
    expect(reasonOf(await rejection(fs.readTextFile({ sessionId, path: path.join(t.root, 's.txt') })))).toBe('outside_root');
    const w = await rejection(fs.writeTextFile({ sessionId, path: path.join(t.root, 's.txt'), content: 'pwned' }));
    expect(reasonOf(w)).toBe('outside_root');
    expect(readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
  });

  it('refuses to create a file through a dangling symlink', async () => {
    symlinkSync(path.join(t.outside, 'planted.txt'), path.join(t.root, 'dangling.txt'));
    const w = await rejection(access().writeTextFile({ sessionId, path: path.join(t.root, 'dangling.txt'), content: 'x' }));
    expect(reasonOf(w)).toBe('dangling_symlink');
    expect(existsSync(path.join(t.outside, 'planted.txt'))).toBe(false);
  });

  it('refuses to write a file with another hard link', async () => {
    linkSync(path.join(t.outside, 'secret.txt'), path.join(t.root, 'hard.txt'));
    const w = await rejection(access().writeTextFile({ sessionId, path: path.join(t.root, 'hard.txt'), content: 'pwned' }));
    expect(w.data).toMatchObject({ reason: 'hard_link', nlink: 2 });
    expect(readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
  });
});

describe('fs/write_text_file', () => {
  it('creates the file and its missing folders, reporting oldText null', async () => {
    const p = path.join(t.root, 'a', 'b', 'c.txt');
    expect(await access().writeTextFile({ sessionId, path: p, content: 'héllo\n' })).toEqual({});
    expect(readFileSync(p, 'utf8')).toBe('héllo\n');
    expect(writes).toEqual([{ sessionId, path: p, realPath: p, oldText: null, newText: 'héllo\n' }]);
  });

  it('overwrites in place, reporting the old text and keeping the mode', async () => {
    const p = path.join(t.root, 'x.sh');
    writeFileSync(p, 'a much longer old content\n', { mode: 0o755 });
    const ino = statSync(p).ino;
    await access().writeTextFile({ sessionId, path: p, content: 'new\n' });
    expect(readFileSync(p, 'utf8')).toBe('new\n');
    expect(statSync(p).ino).toBe(ino);
    expect(statSync(p).mode & 0o777).toBe(0o755);
    expect(writes).toEqual([expect.objectContaining({ oldText: 'a much longer old content\n', newText: 'new\n' })]);
  });

  it('writes through a folder symlink that stays inside the root', async () => {
    mkdirSync(path.join(t.root, 'real'));
    symlinkSync(path.join(t.root, 'real'), path.join(t.root, 'alias'));
    await access().writeTextFile({ sessionId, path: path.join(t.root, 'alias', 'f.txt'), content: 'ok' });
    expect(readFileSync(path.join(t.root, 'real', 'f.txt'), 'utf8')).toBe('ok');
    expect(writes[0]?.realPath).toBe(path.join(t.root, 'real', 'f.txt'));
  });

  it('refuses a write whose content is not a string', async () => {
    const err = await rejection(access().writeTextFile({ sessionId, path: path.join(t.root, 'x'), content: 3 as unknown as string }));
    expect(err.code).toBe(-32602);
    expect(existsSync(path.join(t.root, 'x'))).toBe(false);
  });

  it('keeps working when a listener throws', async () => {
    const fs = access({ onWrite: () => { throw new Error('listener bug'); } });
    await fs.writeTextFile({ sessionId, path: path.join(t.root, 'ok.txt'), content: 'ok' });
    expect(readFileSync(path.join(t.root, 'ok.txt'), 'utf8')).toBe('ok');
  });

  it('lets subscribers follow writes until disposed', async () => {
    const fs = access();
    const seen: string[] = [];
    const sub = fs.subscribe({ onWrite: (w) => seen.push(w.newText) });
    await fs.writeTextFile({ sessionId, path: path.join(t.root, 'f.txt'), content: '1' });
    sub.dispose();
    await fs.writeTextFile({ sessionId, path: path.join(t.root, 'f.txt'), content: '2' });
    expect(seen).toEqual(['1']);
    expect(writes.map((w) => [w.oldText, w.newText])).toEqual([[null, '1'], ['1', '2']]);
  });

  for (const portableOpen of [false, true]) {
    const strategy = portableOpen ? 'portable open' : 'pinned /proc/self/fd walk';
    describe(`a swap between check and write (${strategy})`, () => {
      it('does not follow a final component swapped for a symlink', async () => {
        const p = path.join(t.root, 'target.txt');
        writeFileSync(p, 'mine\n');
        const fs = access({
          portableOpen,
          afterCheck: () => {
            rmSync(p);
            symlinkSync(path.join(t.outside, 'secret.txt'), p);
          },
        });
        const err = await rejection(fs.writeTextFile({ sessionId, path: p, content: 'pwned' }));
        expect(reasonOf(err)).toBe('symlink');
        expect(readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
        expect(writes).toEqual([]);
      });

      it('does not write outside when a middle folder is swapped for a symlink', async () => {
        mkdirSync(path.join(t.root, 'sub'));
        const p = path.join(t.root, 'sub', 'f.txt');
        const fs = access({
          portableOpen,
          afterCheck: () => {
            renameSync(path.join(t.root, 'sub'), path.join(t.root, 'sub-moved'));
            symlinkSync(t.outside, path.join(t.root, 'sub'));
          },
        });
        const err = await rejection(fs.writeTextFile({ sessionId, path: p, content: 'pwned' }));
        expect(reasonOf(err)).toBe('changed_during_check');
        // The portable strategy may leave an empty file behind (documented); never the content.
        const planted = path.join(t.outside, 'f.txt');
        if (portableOpen) expect(existsSync(planted) ? readFileSync(planted, 'utf8') : '').toBe('');
        else expect(existsSync(planted)).toBe(false);
        expect(writes).toEqual([]);
      });

      it('does not read a file swapped for a symlink', async () => {
        const p = path.join(t.root, 'r.txt');
        writeFileSync(p, 'mine\n');
        const fs = access({
          portableOpen,
          afterCheck: () => {
            rmSync(p);
            symlinkSync(path.join(t.outside, 'secret.txt'), p);
          },
        });
        expect(reasonOf(await rejection(fs.readTextFile({ sessionId, path: p })))).toBe('symlink');
      });
    });
  }
});

describe('sliceLines', () => {
  it('handles empty text, limit 0 and a missing final newline', () => {
    expect(sliceLines('', 1, 5)).toBe('');
    expect(sliceLines('a\nb', 1, 0)).toBe('');
    expect(sliceLines('a\nb', 2, 1)).toBe('b');
    expect(sliceLines('a\nb\n', 3)).toBe('');
  });
});

describe('sensitive files inside the root', () => {
  it('are refused without an approver, and read only after it says yes', async () => {
    const env = path.join(t.root, '.env');
    writeFileSync(env, 'TOKEN=x\n');
    const fs = access();
    const refused = await rejection(fs.readTextFile({ sessionId, path: env }));
    expect(refused.code).toBe(-32602);
    expect(refused.data).toMatchObject({ reason: 'sensitive', refusal: 'no-person', path: env });
    expect(refusals).toEqual([expect.objectContaining({ reason: 'sensitive', path: env })]);
    const asked: string[] = [];
    const yes = await fs.readTextFile({ sessionId, path: env }, { approveSensitive: async (a) => (asked.push(`${a.method} ${a.realPath}`), { allowed: true, decidedBy: 'user' }) });
    expect(yes).toEqual({ content: 'TOKEN=x\n' });
    expect(asked).toEqual([`fs/read_text_file ${env}`]);
  });

  it('are asked about through an innocent-looking symlink too, and a write is not done on "no"', async () => {
    const env = path.join(t.root, '.env');
    writeFileSync(env, 'TOKEN=x\n');
    symlinkSync(env, path.join(t.root, 'settings.txt'));
    const fs = access();
    const asked: Array<{ path: string; newText?: string }> = [];
    const no = async (a: { path: string; newText?: string }) => (asked.push({ path: a.path, newText: a.newText }), { allowed: false as const, decidedBy: 'user', refusal: 'rejected' as const });
    const refused = await rejection(fs.writeTextFile({ sessionId, path: path.join(t.root, 'settings.txt'), content: 'TOKEN=y\n' }, { approveSensitive: no }));
    expect(refused.data).toMatchObject({ reason: 'sensitive', refusal: 'rejected', decidedBy: 'user' });
    expect(asked).toEqual([{ path: path.join(t.root, 'settings.txt'), newText: 'TOKEN=y\n' }]);
    expect(readFileSync(env, 'utf8')).toBe('TOKEN=x\n');
    expect(writes).toEqual([]);
  });

  it('an ordinary file never asks', async () => {
    const file = path.join(t.root, 'env.txt');
    writeFileSync(file, 'hi');
    const fs = access();
    expect(await fs.readTextFile({ sessionId, path: file }, { approveSensitive: () => Promise.reject(new Error('asked')) })).toEqual({ content: 'hi' });
  });
});
