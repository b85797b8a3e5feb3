import { describe, expect, it } from 'vitest';
import { shallow } from 'zustand/shallow';
import type { LiveSessionSummary } from '../../common/api/session-api-types';
import { TranscriptApplier } from '../../common/transcript/apply-patches';
import { emptyTranscript } from '../../common/transcript/model';
import { knownPanes, paneAgentName, paneExists, paneLoadError, paneStatus } from './pane-selectors';
import type { SessionsStore, SessionView } from './sessions-store';

function view(sessionId: string, status = 'prompting'): SessionView {
  const summary = { sessionId, status: { status }, waiting: 0, agent: { label: 'flood', name: 'flood-agent' } } as unknown as LiveSessionSummary;
  return { summary, transcript: emptyTranscript(), seq: 0, loaded: true, complete: true, elicitations: [] };
}

/** The store after one streamed frame of session `id`, as the frame scheduler commits it. */
function streamed(state: SessionsStore, id: string, applier: TranscriptApplier, chunk: number): SessionsStore {
  applier.apply([{ op: 'append-entry', entry: { id: `e${chunk}`, kind: 'agent_message', t: chunk, turn: 1, content: [{ type: 'text', text: `chunk ${chunk}` }] } }]);
  const before = state.views[id]!;
  return { ...state, views: { ...state.views, [id]: { ...before, transcript: applier.snapshot(), seq: before.seq + 1 } }, frame: state.frame + 1 };
}

describe('pane selectors', () => {
  const a = new TranscriptApplier(emptyTranscript(), { shareContainers: true });
  const first: SessionsStore = { order: ['s1', 's2'], views: { s1: view('s1'), s2: view('s2') }, frame: 0 };

  it('return the same values while the sessions only stream (the window and panes do not re-render)', () => {
    let state = first;
    const selectors = [paneExists('s1'), paneStatus('s1'), paneAgentName('s1'), paneLoadError('s1'), paneStatus('s2')];
    const before = selectors.map((select) => select(state));
    const panes = knownPanes(['s2', 's1', 'gone']);
    const listBefore = panes(state);
    for (let chunk = 1; chunk <= 3; chunk++) {
      const next = streamed(state, 's1', a, chunk);
      expect(next.views).not.toBe(state.views); // what App and SessionPane selected before
      state = next;
    }
    expect(selectors.map((select) => select(state))).toEqual(before);
    for (const [i, select] of selectors.entries()) expect(Object.is(select(state), before[i])).toBe(true);
    expect(shallow(panes(state), listBefore)).toBe(true);
  });

  it('change with what the pane shows', () => {
    const state: SessionsStore = { ...first, views: { s1: { ...view('s1', 'ready'), loadError: 'gone' } } };
    expect(paneStatus('s1')(first)).toBe('prompting');
    expect(paneStatus('s1')(state)).toBe('ready');
    expect(paneLoadError('s1')(state)).toBe('gone');
    expect(paneAgentName('s1')(state)).toBe('flood-agent');
    expect(paneExists('s2')(state)).toBe(false);
    expect(knownPanes(['s2', 's1'])(state)).toEqual(['s1']);
    expect(knownPanes(['s2', 's1'])(first)).toEqual(['s2', 's1']);
  });
});
