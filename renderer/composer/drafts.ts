/**
 * What is typed and attached in a pane's composer but not sent yet, by session: it survives the pane
 * being hidden and shown again (the composer is unmounted meanwhile), and the text also a reload or
 * a restart of the window (localStorage; attachments can be megabytes and stay in memory only).
 */
import { create } from 'zustand';
import type { Attachment } from './attachments';

const KEY = 'acp-workbench.drafts.v1';
/** Drafts kept at most (the oldest go first), and the longest text kept across a reload. */
const MAX_DRAFTS = 50;
const MAX_SAVED_CHARS = 100_000;
const SAVE_DELAY_MS = 300;

interface Drafts {
  text: Record<string, string>;
  attachments: Record<string, Attachment[]>;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;
const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

function load(from: Storage | null): Record<string, string> {
  try {
    const v = JSON.parse(from?.getItem(KEY) ?? '{}') as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  } catch {
    return {};
  }
}

export const useDrafts = create<Drafts>(() => ({ text: load(storage()), attachments: {} }));

let timer: ReturnType<typeof setTimeout> | undefined;

/** Writes the texts now (also what a pending save would have written). */
export function saveDrafts(to: Storage | null = storage()): void {
  clearTimeout(timer);
  timer = undefined;
  const kept = Object.entries(useDrafts.getState().text)
    .filter(([, t]) => t !== '' && t.length <= MAX_SAVED_CHARS)
    .slice(-MAX_DRAFTS);
  try {
    to?.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // A full storage loses the drafts across a reload only.
  }
}

function saveSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(() => saveDrafts(), SAVE_DELAY_MS);
}

export const drafts = {
  setText(sessionId: string, text: string): void {
    useDrafts.setState((s) => {
      const { [sessionId]: _old, ...rest } = s.text;
      // Re-inserted last: the most recently edited drafts are the ones kept.
      return { text: text === '' ? rest : { ...rest, [sessionId]: text } };
    });
    saveSoon();
  },
  setAttachments(sessionId: string, update: (list: Attachment[]) => Attachment[]): void {
    useDrafts.setState((s) => ({ attachments: { ...s.attachments, [sessionId]: update(s.attachments[sessionId] ?? []) } }));
  },
  /** A session restarted as a new one (a crash): its draft goes with it. */
  move(fromId: string, toId: string): void {
    useDrafts.setState((s) => {
      const { [fromId]: text, ...texts } = s.text;
      const { [fromId]: list, ...lists } = s.attachments;
      return { text: text ? { ...texts, [toId]: text } : texts, attachments: list ? { ...lists, [toId]: list } : lists };
    });
    saveSoon();
  },
  /** After a send: nothing left to keep. */
  clear(sessionId: string): void {
    useDrafts.setState((s) => {
      const { [sessionId]: _t, ...text } = s.text;
      const { [sessionId]: _a, ...attachments } = s.attachments;
      return { text, attachments };
    });
    saveSoon();
  },
};

/** Saves before the page goes (a reload within the save delay would lose the last keystrokes). */
export function saveDraftsOnLeave(target: Pick<Window, 'addEventListener'>): void {
  target.addEventListener('pagehide', () => saveDrafts());
}
