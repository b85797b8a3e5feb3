import { describe, expect, it, vi } from 'vitest';
import type { Action } from '../palette/actions';
import { runAppCommand } from './app-commands';

const action = (id: string, over: Partial<Action> = {}): Action => ({ id, title: `Do ${id}…`, run: vi.fn(), ...over });

describe('a command from the desktop menu', () => {
  it('runs the palette action it names', () => {
    const list = [action('session.new'), action('view.sidebar')];
    const say = vi.fn();
    expect(runAppCommand('view.sidebar', list, false, say)).toBe(true);
    expect(list[1]!.run).toHaveBeenCalledOnce();
    expect(list[0]!.run).not.toHaveBeenCalled();
    expect(say).not.toHaveBeenCalled();
  });

  it('waits for an open dialog, as the window’s keys do, and says so', () => {
    const list = [action('session.new')];
    const say = vi.fn();
    expect(runAppCommand('session.new', list, true, say)).toBe(false);
    expect(list[0]!.run).not.toHaveBeenCalled();
    expect(say).toHaveBeenCalledWith('Do session.new: close the open dialog first.');
  });

  it('says why an action cannot run now, and names a command it does not know', () => {
    const list = [action('find.open', { unavailable: 'No pane is focused' })];
    const say = vi.fn();
    expect(runAppCommand('find.open', list, false, say)).toBe(false);
    expect(list[0]!.run).not.toHaveBeenCalled();
    expect(say).toHaveBeenLastCalledWith('Do find.open: No pane is focused.');
    expect(runAppCommand('nothing.like.this', list, false, say)).toBe(false);
    expect(say).toHaveBeenLastCalledWith(expect.stringContaining('"nothing.like.this"'));
  });
});
