import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCompletions, MAX_COMPLETIONS } from './folder-completions';

const root = mkdtempSync(join(tmpdir(), 'acpwb-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const d of ['projects', 'Prototypes', 'pr-notes', '.private', 'music']) mkdirSync(join(root, d));
writeFileSync(join(root, 'profile.txt'), 'a file, not a folder');

describe('folderCompletions', () => {
  it('offers the folders whose names start with what was typed, ignoring case, files and hidden folders', async () => {
    expect(await folderCompletions(join(root, 'pr'))).toEqual([join(root, 'pr-notes/'), join(root, 'projects/'), join(root, 'Prototypes/')]);
    expect(await folderCompletions(`${root}/`)).toEqual(['music', 'pr-notes', 'projects', 'Prototypes'].map((d) => join(root, d) + '/'));
  });

  it('offers a link to a folder as a folder, not a link to a file or a broken one', async () => {
    const links = mkdtempSync(join(tmpdir(), 'acpwb-links-'));
    symlinkSync(join(root, 'projects'), join(links, 'code'));
    symlinkSync(join(root, 'profile.txt'), join(links, 'config'));
    symlinkSync(join(root, 'missing'), join(links, 'cold'));
    expect(await folderCompletions(join(links, 'c'))).toEqual([join(links, 'code/')]);
    rmSync(links, { recursive: true, force: true });
  });

  it('offers hidden folders once a dot is typed', async () => {
    expect(await folderCompletions(join(root, '.p'))).toEqual([join(root, '.private/')]);
  });

  it('completes under the home folder and keeps the ~ as typed', async () => {
    const env = { HOME: root };
    expect(await folderCompletions('~/mu', env)).toEqual(['~/music/']);
    expect(await folderCompletions('~', env)).toEqual(['~/music/', '~/pr-notes/', '~/projects/', '~/Prototypes/']);
  });

  it('offers nothing for a relative path, a missing or unreadable folder', async () => {
    expect(await folderCompletions('projects')).toEqual([]);
    expect(await folderCompletions('')).toEqual([]);
    expect(await folderCompletions(join(root, 'missing', 'x'))).toEqual([]);
    expect(await folderCompletions(join(root, 'profile.txt', 'x'))).toEqual([]);
  });

  it('offers at most MAX_COMPLETIONS', async () => {
    const many = mkdtempSync(join(tmpdir(), 'acpwb-many-'));
    for (let i = 0; i < MAX_COMPLETIONS + 5; i++) mkdirSync(join(many, `d${String(i).padStart(3, '0')}`));
    expect(await folderCompletions(`${many}/`)).toHaveLength(MAX_COMPLETIONS);
    rmSync(many, { recursive: true, force: true });
  });
});
