import { describe, expect, it } from 'vitest';
import { keepAriaLabel, type LabelledEditor } from './aria-label';

/** An editor whose options can be changed behind the helper's back, as the diff editor does. */
function fakeEditor(): LabelledEditor & { set(label: string): void; updates: number; listeners: number } {
  let options: { ariaLabel?: string } = {};
  const listeners = new Set<() => void>();
  const editor = {
    updates: 0,
    get listeners() {
      return listeners.size;
    },
    getRawOptions: () => options,
    updateOptions(next: { ariaLabel: string }) {
      editor.updates++;
      editor.set(next.ariaLabel);
    },
    set(label: string) {
      options = { ...options, ariaLabel: label };
      for (const l of [...listeners]) l();
    },
    onDidChangeConfiguration(listener: () => void) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  return editor;
}

describe('keepAriaLabel', () => {
  it('names the editor at once', () => {
    const editor = fakeEditor();
    keepAriaLabel(editor, 'hello.txt, after the change');
    expect(editor.getRawOptions().ariaLabel).toBe('hello.txt, after the change');
  });

  it('puts the name back when the configuration clears it, without looping', () => {
    const editor = fakeEditor();
    keepAriaLabel(editor, 'a.ts, before the change');
    editor.set('');
    expect(editor.getRawOptions().ariaLabel).toBe('a.ts, before the change');
    expect(editor.updates).toBe(2);
  });

  it('stops watching once disposed', () => {
    const editor = fakeEditor();
    const kept = keepAriaLabel(editor, 'a.ts');
    kept.dispose();
    expect(editor.listeners).toBe(0);
    editor.set('');
    expect(editor.getRawOptions().ariaLabel).toBe('');
  });
});
