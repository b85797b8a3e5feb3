import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RunSummary } from '../../common/api/compare-types';
import type { Transcript } from '../../common/transcript/model';
import { api, errorText } from '../api/api-context';
import { useSessions } from '../state/sessions-store';
import { formatMs } from './figures';
import { runs, useRuns } from './runs-store';
import { axisTicks, buildLane, lanesOpen, percentAt, timelineRange, type Lane, type TimelineRange } from './timeline';
import './compare.css';
import { counted } from '../../common/text/counted';

/**
 * Above the panes of a compare run: what the run is, its shared timeline (a lane per agent:
 * turns, time to first update, tool calls, permission waits, end), follow-up prompts to all or
 * some agents, and the way to its comparison.
 */
export function RunStrip() {
  const run = useRuns((s) => (s.activeRunId ? s.runs[s.activeRunId] : undefined));
  if (!run) return null;
  return <RunStripBody run={run} />;
}

function RunStripBody({ run }: { run: RunSummary }) {
  const [followUp, setFollowUp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const working = run.status === 'running' || run.status === 'preparing';
  return (
    <section className="run-strip" data-testid="run-strip" data-run-id={run.runId} data-status={run.status} aria-label="Compare run">
      <header className="run-strip-header">
        <strong>Compare run</strong>
        <span className={`run-status run-status-${run.status}`} data-testid="run-strip-status">
          {run.status}
        </span>
        <span className="run-strip-prompt muted" title={run.prompt}>
          {run.prompt}
        </span>
        <span className="spacer" />
        {run.live && (
          <button type="button" onClick={() => setFollowUp((v) => !v)} aria-expanded={followUp} data-testid="run-follow-up-toggle">
            Follow-up…
          </button>
        )}
        <button type="button" className={working ? '' : 'primary'} onClick={() => runs.openComparison(run.runId)} data-testid="run-open-comparison" title={working ? 'Agents are still working: the comparison fills in as they finish' : 'Compare what the agents did'}>
          Compare
        </button>
        <button type="button" className="icon" onClick={() => runs.setActive(null)} aria-label="Hide the run strip" title="Hide the run strip (the sessions stay)" data-testid="run-strip-close">
          ✕
        </button>
      </header>
      <RunTimeline run={run} />
      {followUp && run.live && (
        <FollowUpForm
          run={run}
          onSent={() => {
            setError(null);
            setFollowUp(false);
          }}
          onError={setError}
        />
      )}
      {error && (
        <p className="error small run-strip-error" role="alert" data-testid="run-strip-error">
          Follow-up failed: {error}
        </p>
      )}
    </section>
  );
}

interface LaneInput {
  index: number;
  label: string;
  sessionId: string | null;
  transcript: Transcript | null;
  startedAt: number;
}

function useLaneInputs(run: RunSummary): LaneInput[] {
  const parts = useSessions(
    useShallow((s) =>
      run.agents.flatMap((a) => {
        const v = a.sessionId ? s.views[a.sessionId] : undefined;
        return [v?.transcript ?? null, v?.summary.startedAt ?? 0] as const;
      }),
    ),
  );
  return useMemo(
    () => run.agents.map((a, i) => ({ index: a.index, label: a.label, sessionId: a.sessionId, transcript: parts[i * 2] as Transcript | null, startedAt: parts[i * 2 + 1] as number })),
    [run.agents, parts],
  );
}

export function RunTimeline({ run }: { run: RunSummary }) {
  const inputs = useLaneInputs(run);
  const lanes = useMemo(
    () => inputs.map((l) => (l.transcript ? buildLane(l.transcript.ids.map((id) => l.transcript!.entries[id]!), l.startedAt) : { turns: [], tools: [], waits: [] })),
    [inputs],
  );
  const open = lanesOpen(lanes);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [open]);
  const range = timelineRange(lanes, open ? Math.max(now, Date.now()) : now);
  return (
    <div className="run-timeline" data-testid="run-timeline" data-open={open}>
      {inputs.map((l, i) => (
        <TimelineLane key={l.index} input={l} lane={lanes[i]!} range={range} now={now} agentStatus={run.agents[i]?.status ?? 'pending'} />
      ))}
      {range && <TimelineAxis range={range} />}
      <div className="timeline-legend muted" aria-hidden="true">
        <span><i className="lg lg-first" /> until the first update</span>
        <span><i className="lg lg-turn" /> turn</span>
        <span><i className="lg lg-tool" /> tool call</span>
        <span><i className="lg lg-wait" /> waiting for permission</span>
        <span><i className="lg lg-end" /> end</span>
      </div>
    </div>
  );
}

function TimelineLane({ input, lane, range, now, agentStatus }: { input: LaneInput; lane: Lane; range: TimelineRange | null; now: number; agentStatus: string }) {
  const at = (t: number) => (range ? percentAt(range, t) : 0);
  const span = (a: number, b: number) => ({ left: `${at(a)}%`, width: `${Math.max(0.4, at(b) - at(a))}%` });
  const last = lane.turns[lane.turns.length - 1];
  const first = lane.turns[0];
  const state = !last ? 'waiting' : last.end === null ? 'running' : 'done';
  return (
    <div className="timeline-lane" data-testid="timeline-lane" data-agent-index={input.index} data-session-id={input.sessionId ?? ''} data-state={state} data-agent-status={agentStatus}>
      <span className="timeline-label" title={input.label}>
        {input.label}
      </span>
      <div className="timeline-track">
        {range &&
          lane.turns.map((t) => {
            const end = t.end ?? now;
            return (
              <div key={`turn-${t.turn}-${t.start}`}>
                <div className={`timeline-turn${t.end === null ? ' open' : ''}`} style={span(t.start, end)} data-testid="timeline-turn" title={`Turn ${t.turn}: ${formatMs(end - t.start)}${t.end === null ? ' so far' : ''}`} />
                <div
                  className="timeline-before-first"
                  style={span(t.start, t.firstUpdate ?? end)}
                  data-testid="timeline-first-update"
                  data-ms={t.firstUpdate === null ? '' : Math.round(t.firstUpdate - t.start)}
                  title={t.firstUpdate === null ? 'No update yet' : `First update after ${formatMs(t.firstUpdate - t.start)}`}
                />
                {t.end !== null && (
                  <span
                    className={`timeline-end${t.error ? ' error' : t.stopReason === 'end_turn' ? ' ok' : ' other'}`}
                    style={{ left: `${at(t.end)}%` }}
                    data-testid="timeline-end"
                    data-stop-reason={t.stopReason ?? 'none'}
                    title={`Ended after ${formatMs(t.end - t.start)}: ${t.stopReason ?? 'error'}`}
                  />
                )}
              </div>
            );
          })}
        {range &&
          lane.waits.map((w, i) => (
            <div key={`wait-${i}`} className={`timeline-wait${w.end === null ? ' open' : ''}`} style={span(w.start, w.end ?? now)} data-testid="timeline-wait" data-open={w.end === null} title={`Waiting for permission: ${formatMs((w.end ?? now) - w.start)}`} />
          ))}
        {range &&
          lane.tools.map((t) => (
            <span key={`tool-${t.id}-${t.at}`} className={`timeline-tool kind-${t.kind}`} style={{ left: `${at(t.at)}%` }} data-testid="timeline-tool" data-kind={t.kind} title={`${t.kind}: ${t.title}`} />
          ))}
      </div>
      <span className="timeline-summary muted" data-testid="timeline-summary">
        {!first ? 'starting…' : last!.end === null ? `${formatMs(now - first.start)}…` : `${formatMs(last!.end - first.start)} · ${counted(lane.tools.length, 'tool')}`}
      </span>
    </div>
  );
}

function TimelineAxis({ range }: { range: TimelineRange }) {
  return (
    <div className="timeline-lane timeline-axis" aria-hidden="true">
      <span className="timeline-label" />
      <div className="timeline-track">
        {axisTicks(range).map((t) => (
          <span key={t} className="timeline-tick" style={{ left: `${percentAt(range, range.start + t)}%` }}>
            {formatMs(t).replace(' ms', 'ms').replace(' s', 's')}
          </span>
        ))}
      </div>
      <span className="timeline-summary" />
    </div>
  );
}

function FollowUpForm({ run, onSent, onError }: { run: RunSummary; onSent: () => void; onError: (message: string) => void }) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<number[]>(() => run.agents.filter((a) => a.sessionId).map((a) => a.index));
  const [error, setError] = useState<string | null>(null);
  const send = () => {
    if (!text.trim()) return setError('Type the follow-up prompt');
    if (chosen.length === 0) return setError('Choose at least one agent');
    setError(null);
    const all = chosen.length === run.agents.length;
    // It answers when the turns end; the panes and the timeline show the progress meanwhile.
    void api()
      .request('runs/follow-up', { runId: run.runId, prompt: [{ type: 'text', text }], ...(all ? {} : { indexes: chosen }) })
      .then(runs.remember, (err: unknown) => onError(errorText(err)));
    onSent();
  };
  return (
    <form
      className="run-follow-up"
      data-testid="run-follow-up"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea value={text} onChange={(e) => setText(e.target.value)} rows={2} placeholder="Follow-up prompt for the chosen agents" data-testid="run-follow-up-input" aria-label="Follow-up prompt" />
      <div className="row">
        {run.agents.map((a) => (
          <label key={a.index} className="inline">
            <input
              type="checkbox"
              disabled={!a.sessionId}
              checked={chosen.includes(a.index)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, a.index].sort() : c.filter((x) => x !== a.index)))}
              data-testid="run-follow-up-agent"
              data-agent-index={a.index}
            />
            {a.label}
          </label>
        ))}
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="run-follow-up-send">
          Send to {chosen.length === run.agents.length ? 'all' : chosen.length}
        </button>
      </div>
      {error && (
        <p className="error small" role="alert" data-testid="run-follow-up-error">
          {error}
        </p>
      )}
    </form>
  );
}
