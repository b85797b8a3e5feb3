/**
 * `replay` end to end: read a trace, choose what to play (the whole connection, or one session of
 * it with the connection's own messages such as initialize), and play the agent's side over a
 * pair of streams (stdio for the CLI).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { CorruptLine } from '../../../../common/trace/parse';
import type { TraceHeader, TraceRecord } from '../../../../common/trace/records';
import { listTraceSessions, recordsForSession } from '../../../../common/trace/sessions';
import { readTrace } from '../../history/trace-reader';
import { ReplayAgent, type ReplayDelay, type ReplayIo } from './replay-agent';
import { buildReplayScript, type ReplayScript } from './replay-script';

export interface LoadedReplay {
  header: TraceHeader | undefined;
  script: ReplayScript;
  corrupt: CorruptLine[];
  /** The session played (workbench id), or null for the whole connection. */
  sessionId: string | null;
}

export class ReplaySelectionError extends Error {}

/** Reads the trace; `session` is a workbench session id or the agent's session id. */
export async function loadReplay(path: string, session?: string): Promise<LoadedReplay> {
  let header: TraceHeader | undefined;
  const records: TraceRecord[] = [];
  const lines = new Map<TraceRecord, number>();
  const corrupt: CorruptLine[] = [];
  for await (const item of readTrace(path)) {
    if (item.type === 'header') header = item.header;
    else if (item.type === 'record') {
      records.push(item.record);
      lines.set(item.record, item.line);
    } else {
      const { type: _type, ...line } = item;
      corrupt.push(line);
    }
  }
  if (!header) throw new ReplaySelectionError(`${path} has no trace header on line 1: is it a trace file?`);
  let chosen: readonly TraceRecord[] = records;
  let sessionId: string | null = null;
  if (session !== undefined) {
    const sessions = listTraceSessions(records);
    const info = sessions.find((s) => s.sessionId === session) ?? sessions.find((s) => s.agentSessionId === session);
    if (!info) {
      const known = sessions.map((s) => `${s.sessionId}${s.agentSessionId ? ` (${s.agentSessionId})` : ''}`);
      throw new ReplaySelectionError(`no session ${session} in ${path}${known.length ? `; sessions: ${known.join(', ')}` : ''}`);
    }
    sessionId = info.sessionId;
    chosen = recordsForSession(records, info.sessionId);
  }
  const script = buildReplayScript(chosen.map((record) => ({ record, line: lines.get(record)! })));
  return { header, script, corrupt, sessionId };
}

/** Plays `script` to the client on `input` / `io`; resolves with the exit code when the play is over. */
export async function runReplay(script: ReplayScript, input: Readable, io: ReplayIo, delay: ReplayDelay = 'recorded'): Promise<number> {
  const agent = new ReplayAgent(script.steps, io, { delay });
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', (line) => agent.receive(line));
  lines.on('close', () => agent.end());
  try {
    return await agent.run();
  } finally {
    lines.removeAllListeners('line');
    lines.close();
  }
}
