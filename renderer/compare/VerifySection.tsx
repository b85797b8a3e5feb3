import { useState } from 'react';
import type { ComparisonView, RunSummary } from '../../common/api/compare-types';
import { api, errorText } from '../api/api-context';
import { formatMs, verifyText } from './figures';
import { runs } from './runs-store';

/** The verification command's result per workspace (exit code, output), and running it (again). */
export function VerifySection({ comparison, runId, canRun, summary }: { comparison: ComparisonView; runId: string; canRun: boolean; summary: RunSummary | undefined }) {
  const [command, setCommand] = useState(comparison.verifyCommand ?? '');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      runs.remember(await api().request('runs/verify', { runId, ...(command.trim() ? { command: command.trim() } : {}) }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setRunning(false);
    }
  };
  const any = comparison.agents.some((a) => a.verify);
  return (
    <div className="verify-section" data-testid="comparison-verify">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npm test" aria-label="Verification command" data-testid="verify-command" className="verify-command" spellCheck={false} />
        <button type="submit" disabled={!canRun || running || !command.trim()} data-testid="verify-run" title={canRun ? 'Run it in every workspace, one after the other' : summary?.workspaces === false ? 'The workspaces were removed' : 'Wait for the agents to finish'}>
          {running ? 'Running…' : any ? 'Run again' : 'Run in every workspace'}
        </button>
      </form>
      {error && (
        <p className="error small" role="alert" data-testid="verify-error">
          {error}
        </p>
      )}
      {!any && !running && <p className="muted small">No verification yet{comparison.verifyCommand ? ' (it runs when every agent is done)' : ''}.</p>}
      {any && (
        <div className="verify-results" style={{ gridTemplateColumns: `repeat(${comparison.agents.length}, minmax(200px, 1fr))` }}>
          {comparison.agents.map((a) => {
            const v = verifyText(a);
            return (
              <div key={a.index} className={`verify-result verify-${v.state}`} data-testid="verify-result" data-agent-index={a.index} data-exit-code={a.verify?.exitCode ?? ''} data-state={v.state}>
                <div className="row">
                  <strong>{a.label}</strong>
                  <span className="spacer" />
                  <span>{v.text}</span>
                  {a.verify && <span className="muted small">{formatMs(a.verify.durationMs)}</span>}
                </div>
                {a.verify && (
                  <pre className="verify-output" data-testid="verify-output">
                    {a.verify.truncated ? '…\n' : ''}
                    {a.verify.output || '(no output)'}
                  </pre>
                )}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
