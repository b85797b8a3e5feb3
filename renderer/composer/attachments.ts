import type { ContentBlock } from '../../common/transcript/acp-types';

export interface Attachment {
  id: string;
  name: string;
  block: ContentBlock;
}

let next = 1;

/** The largest file embedded in a prompt: a bigger one is linked by its path instead. */
export const MAX_EMBEDDED_BYTES = 2 * 1024 * 1024;

/** What the agent takes in a prompt besides text (its `promptCapabilities`). */
export interface AttachCaps {
  image: boolean;
  embeddedContext: boolean;
}

export interface AttachPlan {
  files: Array<{ file: File; kind: 'file' | 'image' }>;
  /** Files that cannot be embedded but whose path is known (the desktop app): linked instead. */
  links: Array<{ file: File; path: string }>;
  /** One sentence per file that cannot go, saying why and what to do instead. */
  refused: string[];
}

/** Where a file lives on disk, when the host knows (common/api/file-paths.ts). */
export type PathOf = (file: File) => string | null;

/**
 * Which of the files dropped on the composer, pasted into it or picked can go with the prompt —
 * images as images, other files as their text — and why the others cannot.
 */
export function planAttachments(files: readonly File[], caps: AttachCaps, as?: 'file' | 'image', pathOf: PathOf = () => null): AttachPlan {
  const plan: AttachPlan = { files: [], links: [], refused: [] };
  const linkOr = (file: File, why: string) => {
    const path = pathOf(file);
    if (path) plan.links.push({ file, path });
    else plan.refused.push(why);
  };
  for (const file of files) {
    const kind = as ?? (file.type.startsWith('image/') ? 'image' : 'file');
    const name = file.name || (kind === 'image' ? 'the pasted image' : 'the pasted file');
    if (kind === 'image' && !caps.image) plan.refused.push(`${name}: this agent does not accept images (promptCapabilities.image).`);
    else if (kind === 'file' && !caps.embeddedContext) linkOr(file, `${name}: this agent does not accept embedded files; link it by its path instead.`);
    else if (kind === 'file' && file.size > MAX_EMBEDDED_BYTES) linkOr(file, `${name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB, over the 2 MiB a prompt embeds; link it by its path instead.`);
    else plan.files.push({ file, kind });
  }
  return plan;
}

/** A file that is not text (a NUL in it): not embedded. */
export class NotTextError extends Error {}

/** A file picked in the browser becomes an embedded resource (its text goes with the prompt). */
export async function fileAttachment(file: File): Promise<Attachment> {
  const text = await file.text();
  // NUL does not occur in text; a binary file's bytes would reach the agent as replacement characters.
  if (text.includes('\u0000')) throw new NotTextError(`${file.name} looks like a binary file, not text: link it by its path instead.`);
  return {
    id: `a${next++}`,
    name: file.name,
    block: { type: 'resource', resource: { uri: `file:///${encodeURIComponent(file.name)}`, text, mimeType: file.type || 'text/plain' } },
  };
}

/** A path in the project becomes a resource link the agent reads itself. */
export function pathAttachment(cwd: string, path: string): Attachment {
  const abs = path.startsWith('/') || WINDOWS_ABSOLUTE.test(path) ? path : `${cwd.replace(/\/$/, '')}/${path}`;
  const name = abs.replace(/^.*[\\/]/, '');
  return { id: `a${next++}`, name, block: { type: 'resource_link', uri: fileUri(abs), name } };
}

const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/;

/** `file:///home/a/b.log`, `file:///C:/w/b.log`. */
function fileUri(abs: string): string {
  return WINDOWS_ABSOLUTE.test(abs) ? `file:///${abs.replace(/\\/g, '/')}` : `file://${abs}`;
}

export async function imageAttachment(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { id: `a${next++}`, name: file.name, block: { type: 'image', data: btoa(binary), mimeType: file.type || 'image/png' } };
}

/** A block sent before (a recorded prompt given back) as an attachment again, named as it was attached. */
export function blockAttachment(block: ContentBlock): Attachment {
  const b = block as { type: string; name?: string; uri?: string; resource?: { uri?: string } };
  const uri = b.uri ?? b.resource?.uri ?? '';
  const fromUri = decodeURIComponent(uri.replace(/^.*[\\/]/, ''));
  const name = b.name ?? (fromUri || (b.type === 'image' ? 'image' : b.type));
  return { id: `a${next++}`, name, block };
}
