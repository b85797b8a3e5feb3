/**
 * Resume and fork a recorded session into a new, live workbench session.
 *
 *   resume: session/resume when advertised, else session/load, else a new session primed with the
 *           transcript (each tried in turn: an agent that lost the session falls through);
 *   fork:   session/fork when advertised, forking from the end onto the same agent; else primed
 *           with the prefix (before user message N) — also onto any other agent.
 *
 * The new session's transcript starts from the parent's (up to the fork point), `session/load`'s
 * replay is recorded but not folded in twice (continue-replay.ts), and its `session` record carries
 * the lineage: parent, relation, how, fork point. The agent is launched from the parent's recorded
 * launch spec (recorded-launch.ts) unless another is given.
 *
 *   const plan = await planContinuation({ store, id, kind: 'fork', beforeMessage: 2 });
 *   const session = await startAgentSession({ ...base, ...plan.startOptions() });
 *   await session.prompt(plan.firstPrompt('try another way'));
 */
import type { ContentBlock, InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import type { Lineage, TraceRecord } from '../../../../common/trace/records';
import { rebuildTranscript } from '../../../../common/transcript/rebuild';
import { advertises } from '../../acp/agent-capabilities';
import { SessionError, type AgentSession } from '../../sessions/agent-session';
import type { AgentLaunch, StartSessionOptions } from '../../sessions/start-session';
import { HistoryError, type HistoryStore } from '../history-store';
import type { HistoryEntry } from '../history-types';
import { cutBeforeMessage, ForkPointError, isolateIds, sessionRecords, userMessages } from './lineage-records';
import { buildPrimer, type Primer } from './primer';
import { launchFromTrace } from './recorded-launch';

export type ContinueKind = 'resume' | 'fork';
export type ContinuedBy = 'resume' | 'load' | 'fork' | 'primed';

export interface ContinueOptions {
  store: HistoryStore;
  /** The parent: a workbench session id or a unique prefix. */
  id: string;
  kind: ContinueKind;
  /** Fork before the parent's user message N (1-based); absent = from the end. */
  beforeMessage?: number;
  /**
   * Another agent. A fork onto it is primed; a resume with it still tries resume and load (the
   * same agent started differently).
   */
  agent?: AgentLaunch;
  /** Environment overrides for the recorded launch. */
  env?: Record<string, string>;
  secrets?: { envFor(agentId: string): Record<string, string> };
  processEnv?: NodeJS.ProcessEnv;
  /** The primer's cap in characters (primer.ts). */
  primerMaxChars?: number;
}

export interface ContinuationPlan {
  parent: HistoryEntry;
  kind: ContinueKind;
  launch: AgentLaunch;
  sessionCwd: string;
  lineage: Lineage;
  /** The parent's records the new transcript starts from. */
  seed: TraceRecord[];
  /** Things that could not be restored as recorded (missing secrets...). */
  warnings: string[];
  /** How it was opened; set once the session is open. */
  readonly by: ContinuedBy | undefined;
  /** What to pass to startAgentSession besides the broker, data folder and policy. */
  startOptions(): Pick<StartSessionOptions, 'launch' | 'sessionCwd' | 'lineage' | 'seed' | 'hideReplay' | 'openWith'>;
  /** The first prompt for the user's text: with the primer when the session was primed (once). */
  firstPrompt(text: string): ContentBlock[];
  /** The same for a prompt of any content (the UI's composer). */
  firstPromptBlocks(blocks: ContentBlock[]): ContentBlock[];
}

export class ContinueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContinueError';
  }
}

const VERB: Record<Exclude<ContinuedBy, 'primed'>, string> = {
  resume: 'with session/resume (the agent restored it without replaying)',
  load: 'with session/load (the agent replayed the conversation; the replay is in the trace, shown once)',
  fork: 'with session/fork',
};

export async function planContinuation(options: ContinueOptions): Promise<ContinuationPlan> {
  const { store, kind } = options;
  let parentRecords;
  try {
    parentRecords = await sessionRecords(store, options.id);
  } catch (err) {
    if (err instanceof HistoryError) throw new ContinueError(err.message);
    throw err;
  }
  const parent = parentRecords.entry;
  if (kind === 'resume' && options.beforeMessage !== undefined) throw new ContinueError('a resume continues from the end; use fork to start before a message');
  let seed = parentRecords.records;
  const lineage: Lineage = { parentSessionId: parent.id, relation: kind };
  if (options.beforeMessage !== undefined) {
    try {
      const cut = cutBeforeMessage(seed, options.beforeMessage);
      seed = cut.records;
      lineage.forkPoint = { ...(cut.lastEntryId ? { entryId: cut.lastEntryId } : {}), ...(cut.t !== undefined ? { t: cut.t } : {}), beforeMessage: options.beforeMessage };
    } catch (err) {
      if (err instanceof ForkPointError) throw new ContinueError(`cannot fork ${parent.id} before message ${options.beforeMessage}: ${err.message}`);
      throw err;
    }
  } else if (kind === 'fork') {
    const t = rebuildTranscript(seed);
    const last = t.ids[t.ids.length - 1];
    if (last) lineage.forkPoint = { entryId: last };
  }
  let launch: AgentLaunch;
  const warnings: string[] = [];
  if (options.agent) {
    launch = { ...options.agent, env: { ...options.agent.env, ...options.env } };
  } else {
    try {
      const r = launchFromTrace(parent, parentRecords.header, { ...(options.secrets ? { secrets: options.secrets } : {}), ...(options.processEnv ? { processEnv: options.processEnv } : {}), ...(options.env ? { env: options.env } : {}) });
      launch = r.launch;
      warnings.push(...r.warnings);
    } catch (err) {
      throw new ContinueError((err as Error).message);
    }
  }
  seed = isolateIds(seed, parent.id);
  const sessionCwd = parent.cwd ?? parentRecords.header?.launch.cwd;
  if (!sessionCwd) throw new ContinueError(`session ${parent.id} has no recorded folder`);
  const sameAgent = !(kind === 'fork' && options.agent);
  const hasHistory = userMessages(seed).length > 0 || rebuildTranscript(seed).ids.length > 0;

  let by: ContinuedBy | undefined;
  let primer: Primer | undefined;
  let primerUsed = false;

  const openWith = async (session: AgentSession, init: InitializeResponse): Promise<void> => {
    const conn = session.connection;
    const agentSid = parent.agentSessionId;
    const tries: Array<Exclude<ContinuedBy, 'primed'>> = [];
    const why: string[] = [];
    if (!agentSid) why.push(`${parent.id} has no agent session id (it never opened).`);
    else if (!sameAgent) why.push(`Forking onto another agent (${launch.label}).`);
    else if (kind === 'resume') {
      if (advertises(init, 'session/resume')) tries.push('resume');
      if (advertises(init, 'session/load')) tries.push('load');
      if (tries.length === 0) why.push(`${conn.label} advertises neither session/resume nor session/load.`);
    } else if (options.beforeMessage !== undefined) why.push(`session/fork can only fork from the end; this fork starts before message ${options.beforeMessage}.`);
    else if (advertises(init, 'session/fork')) tries.push('fork');
    else why.push(`${conn.label} does not advertise session/fork.`);
    for (const how of tries) {
      lineage.by = how;
      try {
        await session.open(how, agentSid);
        by = how;
        conn.notice('info', `${kind === 'resume' ? 'Resumed' : 'Forked'} session ${parent.id} ${VERB[how]}.`, session.id);
        return;
      } catch (err) {
        if (err instanceof SessionError && (err.code === 'auth_required' || err.code === 'crashed')) throw err;
        why.push(`session/${how} failed: ${(err as Error).message}.`);
      }
    }
    lineage.by = 'primed';
    await session.open('new');
    by = 'primed';
    const verb = kind === 'resume' ? `Resuming session ${parent.id}:` : `Forking session ${parent.id}${options.beforeMessage ? ` before message ${options.beforeMessage}` : ''}:`;
    if (!hasHistory) {
      conn.notice('info', `${verb} ${why.join(' ')} Nothing came before the fork point, so this is a plain new session.`, session.id);
      return;
    }
    const embedded = (init.agentCapabilities?.promptCapabilities as { embeddedContext?: boolean } | undefined)?.embeddedContext === true;
    primer = buildPrimer(parent, rebuildTranscript(seed), { embeddedContext: embedded, why: `${verb} ${why.join(' ')}`, ...(options.primerMaxChars !== undefined ? { maxChars: options.primerMaxChars } : {}) });
    conn.notice('info', primer.notice, session.id);
  };

  const firstBlocks = (blocks: ContentBlock[]): ContentBlock[] => {
    if (!primer || primerUsed) return blocks;
    primerUsed = true;
    return [...primer.blocks('').slice(0, -1), ...blocks];
  };

  return {
    parent,
    kind,
    launch,
    sessionCwd,
    lineage,
    seed,
    warnings,
    get by() {
      return by;
    },
    startOptions: () => ({ launch, sessionCwd, lineage, seed, hideReplay: seed.length > 0, openWith }),
    firstPrompt: (text: string) => firstBlocks([{ type: 'text', text }]),
    firstPromptBlocks: (blocks: ContentBlock[]) => firstBlocks(blocks),
  };
}
