import type { ContentBlock } from '../../common/transcript/acp-types';

export interface Attachment {
  id: string;
  name: string;
  block: ContentBlock;
}

let next = 1;

/** A file picked in the browser becomes an embedded resource (its text goes with the prompt). */
export async function fileAttachment(file: File): Promise<Attachment> {
  const text = await file.text();
  return {
    id: `a${next++}`,
    name: file.name,
    block: { type: 'resource', resource: { uri: `file:///${encodeURIComponent(file.name)}`, text, mimeType: file.type || 'text/plain' } },
  };
}

/** A path in the project becomes a resource link the agent reads itself. */
export function pathAttachment(cwd: string, path: string): Attachment {
  const abs = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`;
  const name = abs.replace(/^.*\//, '');
  return { id: `a${next++}`, name, block: { type: 'resource_link', uri: `file://${abs}`, name } };
}

export async function imageAttachment(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { id: `a${next++}`, name: file.name, block: { type: 'image', data: btoa(binary), mimeType: file.type || 'image/png' } };
}
