import { useEffect, useRef, useState } from 'react';
import type { AgentAuthParams, TerminalLoginExitEvent, TerminalLoginRetriedEvent } from '../../common/api/auth-types';
import type { LiveSessionSummary, StartSessionParams } from '../../common/api/session-api-types';
import { api, errorText } from '../api/api-context';
import { loadXterm } from './load-xterm';
import type { LoginTerminal } from './xterm-setup';

type Phase = 'starting' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'retry-failed' | 'error';

interface Props {
  /** Which agent: a choice and folder, or a live session's. */
  target: AgentAuthParams;
  methodId: string;
  /** Started by the core after exit 0 (a new agent process); its session comes to `onSession`. */
  retry?: StartSessionParams;
  /** With a session target: the core restarts that session's agent after exit 0 instead. */
  restartSession?: boolean;
  onSession?: (session: LiveSessionSummary) => void;
  onLoggedIn?: () => void;
}

/**
 * A terminal login (auth method of type terminal) in an xterm.js terminal wired to the core's PTY:
 * output in, keystrokes and resizes out. Exit 0 = logged in (and, with `retry`, the session start
 * that needed it follows); any other exit is said, and the output stays visible.
 */
export function TerminalLogin({ target, methodId, retry, restartSession, onSession, onLoggedIn }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>('starting');
  const [message, setMessage] = useState<string | null>(null);
  const [command, setCommand] = useState<string | null>(null);
  const loginRef = useRef<string | null>(null);
  const callbacks = useRef({ onSession, onLoggedIn });
  callbacks.current = { onSession, onLoggedIn };

  useEffect(() => {
    let disposed = false;
    let running = false;
    let term: LoginTerminal | null = null;
    // Events may come before the start request answers with the login id: kept until then.
    const early: Array<{ name: 'output' | 'exit' | 'retried'; payload: { loginId: string } }> = [];
    const exited = (e: TerminalLoginExitEvent) => {
      running = false;
      if (e.exitCode === 0) {
        setPhase(e.retrying ? 'retrying' : 'succeeded');
        setMessage(e.retrying ? 'Logged in. Starting the agent again…' : 'Logged in.');
        if (!e.retrying) callbacks.current.onLoggedIn?.();
      } else {
        setPhase('failed');
        setMessage(e.exitCode !== null ? `The login exited with code ${e.exitCode}: not logged in. Its output is above.` : `The login was ended by signal ${e.signal ?? '?'}: not logged in.`);
      }
    };
    const retried = (e: TerminalLoginRetriedEvent) => {
      if ('session' in e) {
        setPhase('succeeded');
        setMessage('Logged in; the session started.');
        callbacks.current.onSession?.(e.session);
      } else {
        setPhase('retry-failed');
        setMessage(`Logged in, but the session still did not start: ${errorText(e.error)}`);
      }
    };
    const deliver = (name: 'output' | 'exit' | 'retried', payload: { loginId: string }) => {
      if (loginRef.current === null) return void early.push({ name, payload });
      if (payload.loginId !== loginRef.current) return;
      if (name === 'output') term?.terminal.write((payload as { loginId: string; data: string }).data);
      else if (name === 'exit') exited(payload as TerminalLoginExitEvent);
      else retried(payload as TerminalLoginRetriedEvent);
    };
    const offs = [
      api().on('auth/terminal-output', (p) => deliver('output', p)),
      api().on('auth/terminal-exit', (p) => deliver('exit', p)),
      api().on('auth/terminal-retried', (p) => deliver('retried', p)),
    ];
    let observer: ResizeObserver | undefined;
    void (async () => {
      const xterm = await loadXterm();
      if (disposed || !host.current) return;
      term = xterm.createLoginTerminal(host.current);
      // xterm.js does not paint while scrolled out of sight (a long dialog): bring it into view.
      host.current.scrollIntoView({ block: 'nearest' });
      const size = term.fit();
      const view = await api().request('auth/terminal-start', { ...target, methodId, cols: size.cols, rows: size.rows, ...(retry ? { retry } : {}), ...(restartSession ? { restartSession } : {}) });
      if (disposed) {
        void api().request('auth/terminal-kill', { loginId: view.loginId }).catch(() => undefined);
        return;
      }
      loginRef.current = view.loginId;
      running = true;
      setCommand(view.command);
      setPhase('running');
      for (const e of early.splice(0)) deliver(e.name, e.payload);
      const loginId = view.loginId;
      term.terminal.onData((data) => void api().request('auth/terminal-input', { loginId, data }).catch(() => undefined));
      term.terminal.onResize(({ cols, rows }) => void api().request('auth/terminal-resize', { loginId, cols, rows }).catch(() => undefined));
      observer = new ResizeObserver(() => term?.fit());
      observer.observe(host.current);
      term.terminal.focus();
    })().catch((err: unknown) => {
      if (disposed) return;
      setPhase('error');
      setMessage(errorText(err));
      const data = (err as { data?: { command?: string } }).data;
      if (data?.command) setCommand(data.command);
    });
    return () => {
      disposed = true;
      for (const off of offs) off();
      observer?.disconnect();
      if (running && loginRef.current) void api().request('auth/terminal-kill', { loginId: loginRef.current }).catch(() => undefined);
      term?.dispose();
    };
    // One login per mounted view: the parent remounts (key) to start another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    // Keys typed into the terminal are the login's: Escape must not close the dialog around it.
    <div className="terminal-login" data-testid="terminal-login" data-state={phase} onKeyDown={(e) => e.stopPropagation()}>
      {command && (
        <p className="small muted">
          Running <code data-testid="terminal-login-command">{command}</code>
        </p>
      )}
      <div className="terminal-login-screen" ref={host} data-testid="terminal-login-screen" hidden={phase === 'error'} />
      <div className="row">
        <span className={phase === 'failed' || phase === 'error' || phase === 'retry-failed' ? 'error' : 'muted'} role="status" data-testid="terminal-login-status">
          {phase === 'starting' ? 'Starting the login…' : phase === 'running' ? 'Type in the terminal above to log in.' : message}
        </span>
        <span className="spacer" />
        {phase === 'running' && (
          <button type="button" data-testid="terminal-login-kill" onClick={() => void api().request('auth/terminal-kill', { loginId: loginRef.current! }).catch(() => undefined)}>
            Stop the login
          </button>
        )}
      </div>
    </div>
  );
}
