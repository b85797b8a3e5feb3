import { useEffect, useRef, useState, type DragEvent } from 'react';
import { ApiError } from '../../common/api/errors';
import type { ContentBlock } from '../../common/transcript/acp-types';
import { api, errorText } from '../api/api-context';
import { layout, useLayout } from '../state/layout-store';
import { markSending, useSessions } from '../state/sessions-store';
import { paneSending } from '../state/pane-selectors';
import { ComposerIcon } from './composer-icons';
import { fileAttachment, imageAttachment, NotTextError, pathAttachment, planAttachments, type Attachment } from './attachments';
import { drafts, useDrafts } from './drafts';
import { loadHistory, remember } from './prompt-history';
import { completeSlash, slashMatches } from './slash-commands';

const NO_ATTACHMENTS: Attachment[] = [];

/** Multi-line prompt with `/` completion, attachments, history, send to this or the selected panes, cancel. */
export function Composer({ sessionId }: { sessionId: string }) {
  const summary = useSessions((s) => s.views[sessionId]?.summary);
  const commands = useSessions((s) => s.views[sessionId]?.transcript.session.availableCommands);
  const sending = useSessions(paneSending(sessionId));
  const selected = useLayout((s) => s.selected);
  // The draft outlives the composer (a hidden pane, a reload): drafts.ts.
  const text = useDrafts((s) => s.text[sessionId] ?? '');
  const attachments = useDrafts((s) => s.attachments[sessionId] ?? NO_ATTACHMENTS);
  const setText = (value: string) => drafts.setText(sessionId, value);
  const setAttachments = (update: (list: Attachment[]) => Attachment[]) => drafts.setAttachments(sessionId, update);
  const [error, setError] = useState<string | null>(null);
  const [pick, setPick] = useState(0);
  const [linkOpen, setLinkOpen] = useState(false);
  const history = useRef<{ list: string[]; at: number }>({ list: [], at: -1 });
  const area = useRef<HTMLTextAreaElement>(null);
  const typeHere = useLayout((s) => s.typeInto === sessionId);
  const shown = summary !== undefined;
  useEffect(() => {
    if (!typeHere || !shown) return;
    area.current?.focus();
    layout.typed();
  }, [typeHere, shown]);
  if (!summary) return null;
  const status = summary.status.status;
  const busy = status === 'prompting' || status === 'waiting';
  const canSend = !busy && !sending && status !== 'starting' && status !== 'crashed' && status !== 'closed';
  const caps = summary.agent.promptCapabilities;
  const matches = slashMatches(text, commands ?? []);
  const targets = selected.length > 1 && selected.includes(sessionId) ? selected : [sessionId];

  const send = (to: string[]) => {
    const prompt: ContentBlock[] = [...(text.trim() ? [{ type: 'text', text } as ContentBlock] : []), ...attachments.map((a) => a.block)];
    if (prompt.length === 0) return;
    setError(null);
    remember(text);
    history.current.at = -1;
    markSending(to, true);
    for (const id of to) {
      api()
        .request('session/prompt', { sessionId: id, prompt })
        .then(() => markSending([id], false))
        .catch((err: unknown) => {
          markSending([id], false);
          // The answer comes when the turn ends. A dropped connection fails the request, not the turn:
          // the turn goes on in the core, the status bar says the window is reconnecting, and the
          // reconnected window shows the turn as it is.
          if (err instanceof ApiError && err.code === 'transport_closed') return;
          setError(`${to.length > 1 ? `${id}: ` : ''}${errorText(err)}`);
        });
    }
    drafts.clear(sessionId);
  };
  const cancel = () => void api().request('session/cancel', { sessionId }).catch((err: unknown) => setError(errorText(err)));

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches && matches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setPick((p) => (p + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        setText(completeSlash(matches[Math.min(pick, matches.length - 1)]!));
        setPick(0);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      if (canSend) send(e.ctrlKey || e.metaKey ? targets : [sessionId]);
      return;
    }
    if (e.key === 'Escape' && busy) {
      e.preventDefault();
      cancel();
      return;
    }
    const caretAtStart = e.currentTarget.selectionStart === 0 && e.currentTarget.selectionEnd === 0;
    if ((e.key === 'ArrowUp' && (caretAtStart || text === '')) || (e.key === 'ArrowDown' && history.current.at >= 0)) {
      const h = history.current;
      if (h.at === -1) h.list = loadHistory();
      if (h.list.length === 0) return;
      e.preventDefault();
      h.at = e.key === 'ArrowUp' ? (h.at === -1 ? h.list.length - 1 : Math.max(0, h.at - 1)) : h.at + 1;
      if (h.at >= h.list.length) {
        h.at = -1;
        setText('');
      } else setText(h.list[h.at]!);
    }
  };

  // Files picked, dropped on the composer or pasted into it: images as images, others as their
  // text; what the agent cannot take is said, the rest is attached.
  const addFiles = async (files: FileList | readonly File[] | null, kind?: 'file' | 'image') => {
    if (!files || files.length === 0) return;
    const pathOf = (file: File) => window.workbenchFiles?.pathOf(file) ?? null;
    const plan = planAttachments([...files], caps, kind, pathOf);
    // A file that turns out not to be text is linked by its path where the host knows it.
    const embed = (file: File) =>
      fileAttachment(file).catch((err: unknown) => {
        const path = err instanceof NotTextError ? pathOf(file) : null;
        if (path) return pathAttachment(summary.cwd, path);
        throw err;
      });
    const results = await Promise.allSettled(plan.files.map((f) => (f.kind === 'image' ? imageAttachment(f.file) : embed(f.file))));
    const added = [...results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])), ...plan.links.map((l) => pathAttachment(summary.cwd, l.path))];
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [errorText(r.reason)] : []));
    if (added.length) setAttachments((a) => [...a, ...added]);
    setError(plan.refused.length || failed.length ? [...plan.refused, ...failed].join(' ') : null);
  };
  const [dropping, setDropping] = useState(false);
  const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

  return (
    <div
      className={`composer${dropping ? ' composer-dropping' : ''}`}
      data-testid="composer"
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(e) => {
        setDropping(false);
        if (!carriesFiles(e)) return;
        e.preventDefault();
        void addFiles(e.dataTransfer.files);
      }}
    >
      {matches && matches.length > 0 && (
        <ul className="slash-menu" role="listbox" data-testid="slash-menu">
          {matches.map((c, i) => (
            <li
              key={c.name}
              role="option"
              aria-selected={i === pick}
              className={i === pick ? 'active' : ''}
              data-testid="slash-item"
              data-command={c.name}
              onMouseDown={(e) => {
                e.preventDefault();
                setText(completeSlash(c));
                area.current?.focus();
              }}
            >
              <span className="slash-name">/{c.name}</span>
              <span className="slash-desc muted">{c.description}</span>
              {c.input?.hint && <span className="slash-hint muted">{c.input.hint}</span>}
            </li>
          ))}
        </ul>
      )}
      {attachments.length > 0 && (
        <ul className="attachments" data-testid="attachments">
          {attachments.map((a) => (
            <li key={a.id} data-testid="attachment" data-type={a.block.type}>
              {a.block.type === 'image' ? '🖼' : a.block.type === 'resource_link' ? '🔗' : '📄'} {a.name}
              <button type="button" className="icon" onClick={() => setAttachments((list) => list.filter((x) => x.id !== a.id))} aria-label={`Remove ${a.name}`}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={area}
        className="composer-input"
        data-testid="composer-input"
        rows={3}
        placeholder={
          canSend
            ? 'Ask the agent… (Enter to send, Shift+Enter for a new line, / for commands)'
            : sending && !busy
              ? 'Sending…'
              : busy
              ? 'The agent is working… (Esc to cancel)'
              : status === 'crashed'
                ? 'The agent stopped — restart it above to continue'
                : status === 'starting'
                  ? 'The agent is starting…'
                  : 'The session is closed'
        }
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPick(0);
        }}
        onKeyDown={onKeyDown}
        onPaste={(e) => {
          // A pasted screenshot or copied file: attached; pasted text stays text.
          if (e.clipboardData.files.length === 0) return;
          e.preventDefault();
          void addFiles(e.clipboardData.files);
        }}
      />
      <div className="composer-actions">
        <label className={`button composer-icon${caps.embeddedContext ? '' : ' disabled'}`} title={caps.embeddedContext ? 'Attach files (their text goes with the prompt)' : 'This agent does not accept embedded files; link a path instead'}>
          <input type="file" multiple hidden disabled={!caps.embeddedContext} data-testid="attach-file" onChange={(e) => void addFiles(e.target.files, 'file').then(() => (e.target.value = ''))} />
          <ComposerIcon name="attach" />
          <span className="sr-only">Attach file</span>
        </label>
        <button type="button" className="composer-icon" onClick={() => setLinkOpen((o) => !o)} data-testid="attach-link" title="Link a file by its path; the agent reads it itself" aria-label="Link path">
          <ComposerIcon name="link" />
        </button>
        <label className={`button composer-icon${caps.image ? '' : ' disabled'}`} title={caps.image ? 'Attach images' : 'This agent does not accept images (promptCapabilities.image)'} data-testid="attach-image-label" data-enabled={caps.image}>
          <input type="file" accept="image/*" multiple hidden disabled={!caps.image} data-testid="attach-image" onChange={(e) => void addFiles(e.target.files, 'image').then(() => (e.target.value = ''))} />
          <ComposerIcon name="image" />
          <span className="sr-only">Image</span>
        </label>
        <span className="spacer" />
        {busy ? (
          <button type="button" className="danger" onClick={cancel} data-testid="cancel-turn" title="Cancel the turn (Esc)">
            Cancel
          </button>
        ) : (
          <>
            {targets.length > 1 && (
              <button type="button" disabled={!canSend} onClick={() => send(targets)} data-testid="send-selected" title="Send to every selected pane (Ctrl+Enter)" aria-label={`Send to ${targets.length} panes`}>
                Send to {targets.length}
              </button>
            )}
            <button type="button" className="primary" disabled={!canSend} onClick={() => send([sessionId])} data-testid="send-prompt">
              Send
            </button>
          </>
        )}
      </div>
      {error && (
        <p className="error small composer-error" role="alert" data-testid="composer-error">
          {error}
        </p>
      )}
      {linkOpen && (
        <form
          className="link-form"
          onSubmit={(e) => {
            e.preventDefault();
            const input = (e.currentTarget.elements.namedItem('path') as HTMLInputElement).value.trim();
            if (input) setAttachments((a) => [...a, pathAttachment(summary.cwd, input)]);
            setLinkOpen(false);
          }}
        >
          <input name="path" placeholder="path/in/the/project.ts" data-testid="link-path-input" autoFocus />
          <button type="submit">Add</button>
        </form>
      )}
    </div>
  );
}

