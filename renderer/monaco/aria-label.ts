/**
 * Keeps a Monaco editor's accessible name. The diff editor passes `originalAriaLabel` /
 * `modifiedAriaLabel` to its two inner editors once, then clears them again each time it
 * re-applies its options (at once after creation, and when it switches between side by side and
 * inline): their text boxes end up with `aria-label=""`, nothing for a screen reader to announce.
 * This sets the name and puts it back whenever the editor's configuration loses it.
 */
export interface LabelledEditor {
  getRawOptions(): { ariaLabel?: string };
  updateOptions(options: { ariaLabel: string }): void;
  onDidChangeConfiguration(listener: () => void): { dispose(): void };
}

export function keepAriaLabel(editor: LabelledEditor, label: string): { dispose(): void } {
  const apply = () => {
    if (editor.getRawOptions().ariaLabel !== label) editor.updateOptions({ ariaLabel: label });
  };
  apply();
  return editor.onDidChangeConfiguration(apply);
}
