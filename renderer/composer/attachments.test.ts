import { describe, expect, it } from 'vitest';
import { fileAttachment, imageAttachment, MAX_EMBEDDED_BYTES, pathAttachment, planAttachments } from './attachments';

const all = { image: true, embeddedContext: true };
const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' });
const notes = new File(['# notes\n'], 'notes.md', { type: 'text/markdown' });

describe('planAttachments', () => {
  it('sends images as images and other files as their text', () => {
    const plan = planAttachments([png, notes], all);
    expect(plan.files.map((f) => [f.file.name, f.kind])).toEqual([
      ['shot.png', 'image'],
      ['notes.md', 'file'],
    ]);
    expect(plan.refused).toEqual([]);
  });

  it('refuses what the agent does not take, saying why and what to do instead', () => {
    const plan = planAttachments([png, notes], { image: false, embeddedContext: false });
    expect(plan.files).toEqual([]);
    expect(plan.refused).toEqual([
      'shot.png: this agent does not accept images (promptCapabilities.image).',
      'notes.md: this agent does not accept embedded files; link it by its path instead.',
    ]);
  });

  it('refuses a file too big to embed, and names a pasted image that has no name', () => {
    const big = new File([new Uint8Array(MAX_EMBEDDED_BYTES + 1)], 'huge.log', { type: 'text/plain' });
    expect(planAttachments([big], all).refused).toEqual(['huge.log is 2.0 MiB, over the 2 MiB a prompt embeds; link it by its path instead.']);
    const pasted = new File([new Uint8Array([1])], '', { type: 'image/png' });
    expect(planAttachments([pasted], { image: false, embeddedContext: true }).refused[0]).toMatch(/^the pasted image: /);
  });

  it('links by path what cannot be embedded when the host knows where it is (the desktop app)', () => {
    const big = new File([new Uint8Array(MAX_EMBEDDED_BYTES + 1)], 'huge.log', { type: 'text/plain' });
    const pathOf = (f: File) => (f.name === 'huge.log' ? '/var/log/huge.log' : null);
    const plan = planAttachments([big, notes], { image: true, embeddedContext: true }, undefined, pathOf);
    expect(plan.links).toEqual([{ file: big, path: '/var/log/huge.log' }]);
    expect(plan.files.map((f) => f.file.name)).toEqual(['notes.md']);
    expect(plan.refused).toEqual([]);
    // Without embedded context, a file with a known path is linked, one without is refused.
    const noEmbed = planAttachments([big, notes], { image: true, embeddedContext: false }, undefined, pathOf);
    expect(noEmbed.links.map((l) => l.path)).toEqual(['/var/log/huge.log']);
    expect(noEmbed.refused).toEqual(['notes.md: this agent does not accept embedded files; link it by its path instead.']);
  });

  it('links a path as a file URI, POSIX or Windows, relative ones inside the project', () => {
    expect(pathAttachment('/w/p', 'src/a.ts').block).toEqual({ type: 'resource_link', uri: 'file:///w/p/src/a.ts', name: 'a.ts' });
    expect(pathAttachment('/w/p', '/var/log/x.log').block).toMatchObject({ uri: 'file:///var/log/x.log', name: 'x.log' });
    expect(pathAttachment('C:\\w', 'C:\\logs\\x.log').block).toMatchObject({ uri: 'file:///C:/logs/x.log', name: 'x.log' });
  });

  it('takes the kind the picker asked for', () => {
    expect(planAttachments([notes], all, 'image').files[0]!.kind).toBe('image');
  });
});

describe('attachment blocks', () => {
  it('embeds a text file as a resource and an image as base64 data', async () => {
    expect((await fileAttachment(notes)).block).toEqual({ type: 'resource', resource: { uri: 'file:///notes.md', text: '# notes\n', mimeType: 'text/markdown' } });
    expect((await imageAttachment(png)).block).toEqual({ type: 'image', data: 'iVBORw==', mimeType: 'image/png' });
  });

  it('refuses to embed a binary file as text', async () => {
    const zip = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])], 'a.zip', { type: 'application/zip' });
    await expect(fileAttachment(zip)).rejects.toThrow('a.zip looks like a binary file, not text: link it by its path instead.');
  });
});
