import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { actions } from '../palette/actions';
import { layout, useLayout } from '../state/layout-store';
import { filterShortcuts, keyParts, shortcutGroups } from './keyboard-shortcuts';

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * Every keyboard shortcut of the window (Ctrl+/, the palette's "Keyboard shortcuts", Help in the
 * desktop menu): the actions' keys, then each place's own, with a filter. Esc or ✕ closes it and
 * the keyboard goes back where it was.
 */
export function ShortcutsDialog() {
  const open = useLayout((s) => s.shortcutsOpen);
  const [query, setQuery] = useState('');
  const groups = useMemo(() => (open ? filterShortcuts(shortcutGroups(actions()), query) : []), [open, query]);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    return () => before?.focus();
  }, [open]);
  if (!open) return null;
  const close = () => {
    layout.openShortcuts(false);
    setQuery('');
  };
  return (
    <div className="dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="dialog shortcuts"
        role="dialog"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      >
        <div className="row">
          <h2>Keyboard shortcuts</h2>
          <span className="spacer" />
          <button type="button" className="icon" onClick={close} aria-label="Close keyboard shortcuts" data-testid="shortcuts-close">
            ✕
          </button>
        </div>
        <input ref={inputRef} type="search" placeholder="Filter: a word or a key (ctrl+b)" aria-label="Filter shortcuts" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="shortcuts-filter" />
        {groups.length === 0 && <p className="muted" data-testid="shortcuts-none">No shortcut matches “{query}”.</p>}
        {groups.map((g) => (
          <section key={g.title} className="shortcuts-group" data-testid="shortcuts-group" aria-label={g.title}>
            <h3>{g.title}</h3>
            <dl>
              {g.shortcuts.map((s) => (
                <Fragment key={`${s.keys.join(' ')} ${s.what}`}>
                  <dt data-testid="shortcut-keys">
                    {s.keys.map((k, i) => (
                      <Fragment key={k}>
                        {i > 0 && <span className="muted">{s.range ? ' … ' : ' / '}</span>}
                        {keyParts(k, mac).map((part, j) => (
                          <Fragment key={j}>
                            {j > 0 && '+'}
                            <kbd>{part}</kbd>
                          </Fragment>
                        ))}
                      </Fragment>
                    ))}
                  </dt>
                  <dd data-testid="shortcut-what">{s.what}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
