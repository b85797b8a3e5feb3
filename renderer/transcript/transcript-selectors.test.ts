import { describe, expect, it } from 'vitest';
import { emptyTranscript, type Entry, type Transcript } from '../../common/transcript/model';
import type { SessionView, SessionsStore } from '../state/sessions-store';
import { hasUserMessage, transcriptSelectors } from './transcript-selectors';

function message(id: string, kind: 'user_message' | 'agent_message'): Entry {
  return { id, t: 0, turn: 1, kind, content: [{ type: 'text', text: id }] };
}

function transcriptOf(entries: Entry[]): Transcript {
  return { ...emptyTranscript(), ids: entries.map((e) => e.id), entries: Object.fromEntries(entries.map((e) => [e.id, e])) };
}

function storeWith(id: string, view: Partial<SessionView>): SessionsStore {
  return { order: [id], views: { [id]: { transcript: emptyTranscript(), loaded: false, complete: false, seq: 0, elicitations: [], ...view } as SessionView }, frame: 0 };
}

describe('transcriptSelectors', () => {
  it('reads the pane state of its own session', () => {
    const transcript = transcriptOf([message('a', 'agent_message'), message('b', 'user_message')]);
    const store = storeWith('s1', { loaded: true, complete: true, transcript, loadError: 'gone' });
    const select = transcriptSelectors('s1');
    expect(select.loaded(store)).toBe(true);
    expect(select.complete(store)).toBe(true);
    expect(select.loadError(store)).toBe('gone');
    expect(select.exists(store)).toBe(true);
    expect(select.ids(store)).toBe(transcript.ids);
    expect(select.count(store)).toBe(2);
    expect(select.prompted(store)).toBe(true);
  });

  it('answers for a session not in the store', () => {
    const select = transcriptSelectors('other');
    const store = storeWith('s1', { loaded: true });
    expect(select.loaded(store)).toBe(false);
    expect(select.complete(store)).toBe(false);
    expect(select.loadError(store)).toBeUndefined();
    expect(select.exists(store)).toBe(false);
    expect(select.ids(store)).toBeUndefined();
    expect(select.count(store)).toBe(0);
    expect(select.prompted(store)).toBe(false);
  });
});

describe('hasUserMessage', () => {
  it('finds a user message appended after an earlier scan of the same list', () => {
    const ids: string[] = ['a'];
    const entries: Record<string, Entry> = { a: message('a', 'agent_message') };
    const transcript = { ...emptyTranscript(), ids, entries };
    expect(hasUserMessage(transcript)).toBe(false);
    ids.push('b');
    entries.b = message('b', 'user_message');
    expect(hasUserMessage(transcript)).toBe(true);
    expect(hasUserMessage(undefined)).toBe(false);
  });
});
