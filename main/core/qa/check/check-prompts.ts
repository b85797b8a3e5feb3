/**
 * What `check` sends: its prompts and the content blocks of its content probes. Fixture scenarios
 * match these texts to script an agent's answer to each step, so they are exported.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';

export const DEFAULT_CHECK_PROMPT = 'Reply with one short sentence that says hello. Do not use any tools.';
/** Long enough that a real model is still answering when the cancel arrives. */
export const CANCEL_PROBE_PROMPT = 'Count from 1 to 500, one number per line. Do not use any tools. (acp-workbench check: this turn will be cancelled)';
export const ADVERTISED_CONTENT_PROMPT = 'Reply with the single word OK. Do not use any tools. (acp-workbench check: content you advertised)';
export const UNADVERTISED_CONTENT_PROMPT = 'Reply with the single word OK. Do not use any tools. (acp-workbench check: content you did not advertise)';

/** A 1×1 transparent PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A WAV file of four silent 8-bit samples at 8 kHz. */
const WAV_SILENCE = (() => {
  const samples = 4;
  const b = Buffer.alloc(44 + samples);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  b.fill(0x80, 44);
  return b.toString('base64');
})();

/** One block of a gated content type (`image`, `audio`, `resource`). */
export function contentBlock(type: 'image' | 'audio' | 'resource', cwd: string): ContentBlock {
  switch (type) {
    case 'image':
      return { type: 'image', mimeType: 'image/png', data: PNG_1X1 };
    case 'audio':
      return { type: 'audio', mimeType: 'audio/wav', data: WAV_SILENCE };
    case 'resource':
      return {
        type: 'resource',
        resource: { uri: `file://${cwd.replace(/\\/g, '/').replace(/^(?!\/)/, '/')}/acp-workbench-check.txt`, mimeType: 'text/plain', text: 'A test resource sent by acp-workbench check.\n' },
      };
  }
}

export const GATED_CONTENT = [
  { type: 'image', capability: 'image' },
  { type: 'audio', capability: 'audio' },
  { type: 'resource', capability: 'embeddedContext' },
] as const;
