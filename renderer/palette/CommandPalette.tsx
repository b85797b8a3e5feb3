import { useMemo, useState } from 'react';
import { layout, useLayout } from '../state/layout-store';
import { actions } from './actions';

/**
 * Every action, searchable by words, run with Enter. Actions that cannot run now (no pane, no
 * turn, no request waiting) stay listed after the others, greyed, with the reason; Enter on one
 * does nothing.
 */
export function CommandPalette() {
  const open = useLayout((s) => s.paletteOpen);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = actions().filter((a) => words.every((w) => a.title.toLowerCase().includes(w)));
    return [...found.filter((a) => !a.unavailable), ...found.filter((a) => a.unavailable)];
  }, [query, open]);
  if (!open) return null;
  const close = () => {
    layout.openPalette(false);
    setQuery('');
    setActive(0);
  };
  const run = (i: number) => {
    const action = list[i];
    if (!action || action.unavailable) return;
    close();
    action.run();
  };
  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="dialog palette" role="dialog" aria-label="Command palette" data-testid="command-palette">
        <input
          autoFocus
          className="palette-input"
          placeholder="Type a command"
          value={query}
          data-testid="palette-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
            else if (e.key === 'ArrowDown') setActive((a) => Math.min(list.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter') run(active);
            else return;
            e.preventDefault();
          }}
        />
        <ul className="palette-list" role="listbox">
          {list.map((a, i) => (
            <li
              key={a.id}
              role="option"
              aria-selected={i === active}
              aria-disabled={a.unavailable ? true : undefined}
              className={`${i === active ? 'active' : ''}${a.unavailable ? ' unavailable' : ''}`}
              data-testid="palette-item"
              data-action={a.id}
              title={a.unavailable}
              onMouseDown={() => run(i)}
            >
              <span>
                {a.title}
                {a.unavailable && <span className="palette-why" data-testid="palette-why"> — {a.unavailable}</span>}
              </span>
              {a.keys && <kbd>{a.keys}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
