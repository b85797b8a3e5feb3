/**
 * A project folder field that helps type the path: as you type it offers the folders that complete
 * it (`fs/folders`), and before you type, the folders of your recent sessions (from History) — in
 * the input's own suggestion list (a `<datalist>`: arrow keys, Enter, or a click). Where the host has
 * a native folder picker (the desktop app), "Choose…" opens it at the folder typed so far.
 */
import { useEffect, useId, useRef, useState, type InputHTMLAttributes } from 'react';
import { api, errorText } from '../api/api-context';
import { useConnection } from '../state/connection-store';

/** Recent sessions looked at for their folders, and folders offered from them. */
const RECENT_SESSIONS = 100;
const RECENT_FOLDERS = 8;
/** Typing waits this long before the core is asked. */
const COMPLETE_AFTER_MS = 120;

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'list'> & { value: string; onValue(value: string): void };

export function FolderInput({ value, onValue, ...rest }: Props) {
  const listId = useId();
  const [recent, setRecent] = useState<string[]>([]);
  const [completions, setCompletions] = useState<string[]>([]);
  useEffect(() => {
    let cancelled = false;
    api()
      .request('history/list', { limit: RECENT_SESSIONS })
      .then((w) => !cancelled && setRecent(recentFolders(w.items.map((s) => s.cwd))))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  const asked = useRef(0);
  useEffect(() => {
    const ticket = ++asked.current;
    if (!value.trim()) {
      setCompletions([]);
      return undefined;
    }
    const timer = setTimeout(() => {
      api()
        .request('fs/folders', { partial: value })
        .then((r) => ticket === asked.current && setCompletions(r.folders))
        .catch(() => ticket === asked.current && setCompletions([]));
    }, COMPLETE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const testId = (rest as { 'data-testid'?: string })['data-testid'];
  const options = [...completions, ...recent.filter((f) => !completions.includes(f))];
  const canPick = useConnection((s) => s.info?.canPickFolder === true);
  const [pickError, setPickError] = useState<string | null>(null);
  const pick = () => {
    setPickError(null);
    api()
      .request('app/pick-folder', { start: value })
      .then(
        (r) => r.path !== null && onValue(r.path),
        (err: unknown) => setPickError(errorText(err)),
      );
  };
  const input = <input {...rest} value={value} onChange={(e) => onValue(e.target.value)} list={listId} autoComplete="off" />;
  return (
    <>
      {canPick ? (
        <span className="folder-input">
          {input}
          <button type="button" onClick={pick} data-testid={testId ? `${testId}-choose` : undefined} title="Choose the folder in a dialog">
            Choose…
          </button>
        </span>
      ) : (
        input
      )}
      {pickError && (
        <span className="error small" role="alert">
          {pickError}
        </span>
      )}
      <datalist id={listId} data-testid={testId ? `${testId}-options` : undefined}>
        {options.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
    </>
  );
}

/** Distinct folders, most recent first, at most RECENT_FOLDERS. */
export function recentFolders(cwds: ReadonlyArray<string | undefined>): string[] {
  const out: string[] = [];
  for (const c of cwds) if (c && !out.includes(c) && out.push(c) >= RECENT_FOLDERS) break;
  return out;
}
