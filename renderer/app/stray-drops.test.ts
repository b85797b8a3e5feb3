import { describe, expect, it } from 'vitest';
import { ignoreStrayDrops } from './stray-drops';

function drag(type: string, types: string[], handled = false) {
  const e = new Event(type, { cancelable: true }) as Event & { dataTransfer: { types: string[]; dropEffect: string } };
  e.dataTransfer = { types, dropEffect: 'copy' };
  if (handled) e.preventDefault();
  return e;
}

describe('ignoreStrayDrops', () => {
  it('keeps the window from opening a file dropped outside a drop zone, and shows no drop there', () => {
    const win = new EventTarget() as unknown as Window;
    const off = ignoreStrayDrops(win);
    const over = drag('dragover', ['Files']);
    win.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    expect(over.dataTransfer.dropEffect).toBe('none');
    const drop = drag('drop', ['Files']);
    win.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    off();
    const after = drag('drop', ['Files']);
    win.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('leaves text drags and drops a zone handled alone', () => {
    const win = new EventTarget() as unknown as Window;
    ignoreStrayDrops(win);
    const text = drag('drop', ['text/plain']);
    win.dispatchEvent(text);
    expect(text.defaultPrevented).toBe(false);
    const zone = drag('dragover', ['Files'], true);
    win.dispatchEvent(zone);
    expect(zone.dataTransfer.dropEffect).toBe('copy');
  });
});
