import { useEffect, useRef } from 'react';
import { useDiffDialog, type DiffRequest } from './diff-store';
import { DiffView } from './DiffView';
import { countLines } from './diff-policy';
import './monaco.css';

/**
 * The window's full-size diff editor, shown while `useDiffDialog` has a request (tool cards,
 * permission cards and the changes panel open it). Esc or the close button closes it; focus goes
 * back where it was. Mount once per window.
 */
export function DiffDialog() {
  const open = useDiffDialog((s) => s.open);
  if (!open) return null;
  return <DiffDialogBody request={open} />;
}

function DiffDialogBody({ request }: { request: DiffRequest }) {
  const close = useDiffDialog((s) => s.close);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      // Monaco stops the Escape it uses itself (closing its find widget); any other closes the dialog.
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, [close]);

  const isNew = request.oldText === null;
  return (
    <div className="diff-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="diff-dialog" role="dialog" aria-modal="true" aria-label={`Diff of ${request.path}`} data-testid="diff-dialog">
        <header className="diff-dialog-header">
          <div className="diff-dialog-title">
            <strong>{request.title}</strong>
            <span className="diff-dialog-path" title={request.path}>
              {request.path}
            </span>
            {request.loading || request.error !== undefined ? null : (
              <span className="diff-dialog-meta">
                {isNew ? 'new file' : `${countLines(request.oldText ?? '').toLocaleString('en-US')} → `}
                {`${countLines(request.newText).toLocaleString('en-US')} lines`}
              </span>
            )}
          </div>
          <button ref={closeRef} type="button" className="diff-dialog-close" data-testid="diff-dialog-close" onClick={close} aria-label="Close diff (Esc)" title="Close (Esc)">
            ✕
          </button>
        </header>
        <div className="diff-dialog-body">
          {request.error !== undefined ? (
            <div className="diff-dialog-note diff-dialog-error" data-testid="diff-dialog-error" role="alert">
              Could not load this diff: {request.error}
            </div>
          ) : request.loading ? (
            <div className="diff-dialog-note" data-testid="diff-dialog-loading" role="status">
              Loading the diff…
            </div>
          ) : (
            <DiffView oldText={request.oldText} newText={request.newText} path={request.path} height="fill" pinned testId="diff-dialog-editor" />
          )}
        </div>
      </div>
    </div>
  );
}
