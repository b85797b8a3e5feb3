/**
 * Resume and fork against fixture agents (real subprocesses) that advertise resume, only load, or
 * neither: every way works, the transcript holds each message once, forks hold exactly the prefix,
 * lineage is recorded, the recorded environment comes back.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryList, type AgentMessageEntry, type NoticeEntry, type Transcript, type UserMessageEntry } from '../../../../common/transcript/model';
import { FIXTURE_AGENT, SCENARIOS } from '../../acp/test-support/fixture-world';
import type { AgentSession } from '../../sessions/agent-session';
import { PermissionBroker } from '../../sessions/permission-broker';
import { AlwaysMemory, standardPermissionChain } from '../../sessions/permission-policy';
import { PermissionQueue } from '../../sessions/permission-queue';
import { startAgentSession, type AgentLaunch, type StartSessionOptions } from '../../sessions/start-session';
import { HistoryStore } from '../history-store';
import { planContinuation, type ContinueOptions } from './continue-session';
import { sessionRecords, sessionTranscript } from './lineage-records';
import { lineageLines, lineageTree } from './lineage-tree';

const dirs: string[] = [];
const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.connection.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function world() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'acpwb-continue-')));
  dirs.push(base);
  const cwd = join(base, 'project');
  mkdirSync(cwd);
  const broker = new PermissionBroker({ deciders: standardPermissionChain({ memory: new AlwaysMemory() }), queue: new PermissionQueue() });
  return { base, cwd, dataDir: join(base, 'data'), broker };
}
type World = ReturnType<typeof world>;

function fixtureLaunch(w: World, scenario: string, mark: string): AgentLaunch {
  return {
    command: process.execPath,
    args: [FIXTURE_AGENT, '--max-lifetime-ms', '120000', '--scenario', join(SCENARIOS, `${scenario}.json`)],
    env: { ...process.env, FIXTURE_SCENARIO: '', HISTORY_MARK: mark },
    cwd: w.cwd,
    label: scenario,
    agentId: `fixture-${scenario}`,
  };
}

/** A recorded session with three user messages. */
async function original(w: World, scenario: string, mark = 'original'): Promise<string> {
  const s = await startAgentSession({ launch: fixtureLaunch(w, scenario, mark), sessionCwd: w.cwd, dataDir: w.dataDir, broker: w.broker, policy: 'none', interactive: false });
  for (const q of ['first question', 'second question', 'third question']) await s.prompt([{ type: 'text', text: q }]);
  await s.close();
  await s.connection.close();
  return s.id;
}

/** `switches`: client capabilities switched at the start, over the launch's (`--capability`). */
async function continueIt(w: World, options: Omit<ContinueOptions, 'store'>, text: string, switches?: StartSessionOptions['switches']) {
  const store = await HistoryStore.open(w.dataDir);
  const plan = await planContinuation({ store, ...options });
  const session = await startAgentSession({ ...plan.startOptions(), dataDir: w.dataDir, broker: w.broker, policy: 'none', interactive: false, ...(switches ? { switches } : {}) });
  sessions.push(session);
  await session.prompt(plan.firstPrompt(text));
  await session.connection.trace.flush();
  await store.close();
  return { plan, session };
}

const users = (t: Transcript) => entryList(t).filter((e): e is UserMessageEntry => e.kind === 'user_message').map((e) => e.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join(' | '));
const agentTexts = (t: Transcript) => entryList(t).filter((e): e is AgentMessageEntry => e.kind === 'agent_message').map((e) => e.content.map((b) => (b as { text?: string }).text ?? '').join(''));
const notices = (t: Transcript) => entryList(t).filter((e): e is NoticeEntry => e.kind === 'notice').map((e) => e.title);

async function historyTranscript(w: World, id: string): Promise<Transcript> {
  const store = await HistoryStore.open(w.dataDir);
  try {
    return await sessionTranscript(store, id);
  } finally {
    await store.close();
  }
}

describe('resume', () => {
  it('uses session/resume when advertised, keeps the environment, and shows each message once', async () => {
    const w = world();
    const id = await original(w, 'history-resume');
    const { plan, session } = await continueIt(w, { id, kind: 'resume' }, 'fourth question');
    expect(plan.by).toBe('resume');
    expect(plan.lineage).toMatchObject({ parentSessionId: id, relation: 'resume', by: 'resume' });
    expect(users(session.transcript)).toEqual(['first question', 'second question', 'third question', 'fourth question']);
    // HISTORY_MARK came from the recorded launch spec.
    expect(agentTexts(session.transcript).at(-1)).toBe('[original] You said: fourth question');
    expect(notices(session.transcript).join('\n')).toMatch(/session\/resume/);
    const rebuilt = await historyTranscript(w, session.id);
    expect(users(rebuilt)).toEqual(users(session.transcript));
    expect(rebuilt.ids).toEqual(session.transcript.ids);
  });

  /** A finished session of the resume scenario whose agent was started without fs reads through the client. */
  async function startedWithoutReads(w: ReturnType<typeof world>): Promise<string> {
    const launch = { ...fixtureLaunch(w, 'history-resume', 'original'), switches: { readTextFile: false } };
    const s = await startAgentSession({ launch, sessionCwd: w.cwd, dataDir: w.dataDir, broker: w.broker, policy: 'none', interactive: false });
    await s.prompt([{ type: 'text', text: 'first question' }]);
    await s.close();
    await s.connection.close();
    return s.id;
  }

  /** What a recorded session's agent was offered: its trace header's `clientCapabilities`. */
  async function advertised(w: ReturnType<typeof world>, id: string) {
    const store = await HistoryStore.open(w.dataDir);
    try {
      return (await sessionRecords(store, id)).header?.clientCapabilities;
    } finally {
      await store.close();
    }
  }

  it('withholds again the client capabilities the session was started without', async () => {
    const w = world();
    const { plan, session } = await continueIt(w, { id: await startedWithoutReads(w), kind: 'resume' }, 'second question');
    expect(plan.by).toBe('resume');
    expect(await advertised(w, session.id)).toMatchObject({ fs: { readTextFile: false, writeTextFile: true }, terminal: true });
  });

  it('switches client capabilities on top of the recorded withholding when asked (`--capability`)', async () => {
    const w = world();
    const { session } = await continueIt(w, { id: await startedWithoutReads(w), kind: 'resume' }, 'second question', { readTextFile: true, terminal: false });
    expect(await advertised(w, session.id)).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: false });
  });

  it('falls back to session/load: the replay is traced but not shown twice', async () => {
    const w = world();
    const id = await original(w, 'history-load-only');
    const { plan, session } = await continueIt(w, { id, kind: 'resume' }, 'fourth question');
    expect(plan.by).toBe('load');
    expect(users(session.transcript)).toEqual(['first question', 'second question', 'third question', 'fourth question']);
    expect(entryList(session.transcript).some((e) => e.flags?.includes('replayed'))).toBe(false);
    expect(agentTexts(session.transcript).at(-1)).toBe('[original] You said: fourth question');
    // The replay is in the child's trace.
    const trace = readFileSync(session.connection.trace.path, 'utf8');
    expect(trace).toContain('"user_message_chunk"');
    const rebuilt = await historyTranscript(w, session.id);
    expect(users(rebuilt)).toEqual(['first question', 'second question', 'third question', 'fourth question']);
  });

  it('primes a new session when the agent can neither resume nor load', async () => {
    const w = world();
    const id = await original(w, 'history-plain');
    const { plan, session } = await continueIt(w, { id, kind: 'resume', primerMaxChars: 600 }, 'fourth question');
    expect(plan.by).toBe('primed');
    const all = users(session.transcript);
    expect(all.slice(0, 3)).toEqual(['first question', 'second question', 'third question']);
    expect(all).toHaveLength(4);
    const first = entryList(session.transcript).filter((e): e is UserMessageEntry => e.kind === 'user_message')[3]!;
    const resource = first.content.find((b) => b.type === 'resource') as { resource: { text: string; mimeType: string } } | undefined;
    expect(resource?.resource.mimeType).toBe('text/markdown');
    expect(resource!.resource.text.length).toBeLessThanOrEqual(600);
    expect(resource!.resource.text).toMatch(/characters of the earlier transcript were cut here/);
    expect(resource!.resource.text).toMatch(/^# /); // the beginning is kept
    expect(resource!.resource.text).toContain('third question'); // and the most recent part
    expect((first.content.at(-1) as { text: string }).text).toBe('fourth question');
    expect(notices(session.transcript).join('\n')).toMatch(/advertises neither session\/resume nor session\/load.*primed/s);
    expect(agentTexts(session.transcript).at(-1)).toMatch(/^\[original\] You said: .*\nfourth question$/s);
  });
});

describe('fork', () => {
  it('before the second of three user messages holds exactly the prefix, and the lineage shows the parent', async () => {
    const w = world();
    const id = await original(w, 'history-resume');
    const { plan, session } = await continueIt(w, { id, kind: 'fork', beforeMessage: 2 }, 'another second question');
    expect(plan.by).toBe('primed');
    expect(users(session.transcript).slice(0, 1)).toEqual(['first question']);
    expect(users(session.transcript)).toHaveLength(2);
    expect(users(session.transcript)[1]).toMatch(/another second question$/);
    expect(agentTexts(session.transcript)[0]).toBe('[original] You said: first question');
    expect(agentTexts(session.transcript)).toHaveLength(2);
    expect(plan.lineage).toMatchObject({ parentSessionId: id, relation: 'fork', forkPoint: { beforeMessage: 2 } });
    const store = await HistoryStore.open(w.dataDir);
    try {
      expect(store.get(session.id)?.lineage).toMatchObject({ parentSessionId: id, relation: 'fork', by: 'primed' });
      // Titled by the user's words, not by the primer the workbench put before them.
      expect(store.get(session.id)?.firstPrompt).toBe('another second question');
      expect(store.get(session.id)?.title).toBe('another second question');
      const tree = lineageTree(store, session.id);
      expect(tree.root.id).toBe(id);
      expect(tree.root.children.map((c) => c.id)).toEqual([session.id]);
      expect(lineageLines(tree).join('\n')).toContain('before message 2');
      const rebuilt = await sessionTranscript(store, session.id);
      expect(users(rebuilt)).toEqual(users(session.transcript));
    } finally {
      await store.close();
    }
  });

  it('from the end uses session/fork when advertised', async () => {
    const w = world();
    const id = await original(w, 'history-resume');
    const { plan, session } = await continueIt(w, { id, kind: 'fork' }, 'fourth question');
    expect(plan.by).toBe('fork');
    expect(users(session.transcript)).toEqual(['first question', 'second question', 'third question', 'fourth question']);
  });

  it('onto another agent is primed', async () => {
    const w = world();
    const id = await original(w, 'history-resume');
    const other = fixtureLaunch(w, 'history-plain', 'other');
    const { plan, session } = await continueIt(w, { id, kind: 'fork', agent: other }, 'over to you');
    expect(plan.by).toBe('primed');
    expect(users(session.transcript).slice(0, 3)).toEqual(['first question', 'second question', 'third question']);
    expect(agentTexts(session.transcript).at(-1)).toMatch(/^\[other\] You said: The conversation so far .* is attached; continue from it.\nover to you$/);
    expect(notices(session.transcript).join('\n')).toMatch(/another agent/);
  });

  it('refuses a message number that does not exist', async () => {
    const w = world();
    const id = await original(w, 'history-plain');
    const store = await HistoryStore.open(w.dataDir);
    await expect(planContinuation({ store, id, kind: 'fork', beforeMessage: 4 })).rejects.toThrow(/no user message 4: the session has 3/);
    await store.close();
  });
});
