import { describe, expect, it } from 'vitest';
import { onUserScrollIntent } from './user-scroll-intent';

const keydown = (key: string) => Object.assign(new Event('keydown'), { key });

describe('the reader scrolling themself', () => {
  it('is heard from the wheel, touch, a press on the scroller itself and navigation keys; not from typing, a press on a row, or after disposal', () => {
    const scroller = new EventTarget();
    const row = new EventTarget();
    let heard = 0;
    const off = onUserScrollIntent(scroller, () => heard++);
    scroller.dispatchEvent(new Event('wheel'));
    scroller.dispatchEvent(new Event('touchstart'));
    scroller.dispatchEvent(new Event('pointerdown'));
    for (const key of ['Home', 'End', 'PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', ' ']) scroller.dispatchEvent(keydown(key));
    expect(heard).toBe(10);
    scroller.dispatchEvent(keydown('a'));
    scroller.dispatchEvent(keydown('Enter'));
    // A press that started on a row (its target is the row, not the scroller).
    const fromRow = new Event('pointerdown');
    Object.defineProperty(fromRow, 'target', { value: row });
    scroller.dispatchEvent(fromRow);
    expect(heard).toBe(10);
    off();
    scroller.dispatchEvent(new Event('wheel'));
    scroller.dispatchEvent(keydown('Home'));
    expect(heard).toBe(10);
  });
});
