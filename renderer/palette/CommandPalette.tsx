import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
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
  const listRef = useRef<HTMLUListElement>(null);
  const list = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = actions().filter((a) => words.every((w) => a.title.toLowerCase().includes(w)));
    return [...found.filter((a) => !a.unavailable), ...found.filter((a) => a.unavailable)];
  }, [query, open]);
  // The active option stays in view as the arrow keys move it past the list's edge.
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`#${optionId(active)}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);
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
  // The same keys on the input and on the list (which is focusable so that it can be scrolled).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') setActive((a) => Math.min(list.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter') run(active);
    else return;
    e.preventDefault();
  };
  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="dialog palette" role="dialog" aria-label="Command palette" data-testid="command-palette">
        <input
          autoFocus
          className="palette-input"
          role="combobox"
          aria-label="Command"
          aria-expanded="true"
          aria-controls={LIST_ID}
          aria-autocomplete="list"
          aria-activedescendant={list.length > 0 ? optionId(active) : undefined}
          placeholder="Type a command"
          value={query}
          data-testid="palette-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul ref={listRef} id={LIST_ID} className="palette-list" role="listbox" aria-label="Commands" tabIndex={0} onKeyDown={onKeyDown}>
          {list.map((a, i) => (
            <li
              key={a.id}
              id={optionId(i)}
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

const LIST_ID = 'command-palette-list';

/** The id of the option at `index` (the input's aria-activedescendant points at the active one). */
function optionId(index: number): string {
  return `command-palette-option-${index}`;
}
