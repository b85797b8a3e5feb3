import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INFO_NOTE_MS, statusNote, useStatusNote } from './status-note';

describe('statusNote', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    statusNote.dismiss();
    vi.useRealTimers();
  });

  it('shows an info note for a few seconds, an error until dismissed', () => {
    statusNote.show('Exported a.md');
    expect(useStatusNote.getState().note).toMatchObject({ text: 'Exported a.md', kind: 'info' });
    vi.advanceTimersByTime(INFO_NOTE_MS);
    expect(useStatusNote.getState().note).toBeNull();
    statusNote.show('Could not export', 'error');
    vi.advanceTimersByTime(INFO_NOTE_MS * 10);
    expect(useStatusNote.getState().note).toMatchObject({ text: 'Could not export', kind: 'error' });
    statusNote.dismiss();
    expect(useStatusNote.getState().note).toBeNull();
  });

  it('a newer note replaces the older, whose timer does not take the newer away', () => {
    statusNote.show('first');
    vi.advanceTimersByTime(INFO_NOTE_MS - 1000);
    statusNote.show('second');
    vi.advanceTimersByTime(1000);
    expect(useStatusNote.getState().note?.text).toBe('second');
    const { seq } = useStatusNote.getState().note!;
    statusNote.dismiss(seq - 1);
    expect(useStatusNote.getState().note?.text).toBe('second');
    vi.advanceTimersByTime(INFO_NOTE_MS);
    expect(useStatusNote.getState().note).toBeNull();
  });
});
