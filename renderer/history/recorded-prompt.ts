/**
 * A recorded session's prompt, whole: the preview lists its prompts cut at 300 characters, so the
 * entry itself is read (entries are numbered e1, e2… in the order they were appended).
 */
import type { UserMessageView } from '../../common/api/history-types';
import type { ContentBlock } from '../../common/transcript/acp-types';
import { api } from '../api/api-context';

export async function recordedPrompt(id: string, message: UserMessageView | undefined): Promise<ContentBlock[]> {
  if (!message) return [];
  const n = /^e(\d+)$/.exec(message.entryId);
  if (n) {
    const page = await api().request('history/entries', { id, offset: Number(n[1]) - 1, limit: 1 });
    const entry = page.items[0];
    if (entry?.id === message.entryId && entry.kind === 'user_message') return entry.content;
  }
  return [{ type: 'text', text: message.text }];
}
