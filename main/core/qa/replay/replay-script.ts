/**
 * A recorded connection turned into the agent's part of a play: what to expect from the client
 * (its requests, notifications and answers, in recorded order) and what to send it (the agent's
 * answers, requests, notifications, noise, stderr lines, and a crash), each with its recorded time
 * and trace line.
 */
import type { JsonRpcId, TraceRecord } from '../../../../common/trace/records';
import { idKey } from '../envelope';

type Json = Record<string, unknown>;

interface StepBase {
  /** Trace line, for messages that name where the play diverged. */
  line: number;
  t: number;
}

export type ReplayStep =
  /** The client sends a request (matched by method). */
  | (StepBase & { kind: 'expect-request'; method: string; id: JsonRpcId; params: Json | undefined })
  /** The client sends a notification (matched by method). */
  | (StepBase & { kind: 'expect-notification'; method: string; params: Json | undefined })
  /** The client answers one of the agent's requests. */
  | (StepBase & { kind: 'expect-response'; id: JsonRpcId; method: string; msg: Json })
  /** The agent answers the client's request `clientId` (its id is rewritten to the live one). */
  | (StepBase & { kind: 'answer'; clientId: JsonRpcId; method: string; msg: Json })
  /** Anything else the agent wrote as JSON: requests, notifications, broken messages. */
  | (StepBase & { kind: 'send'; msg: Json })
  | (StepBase & { kind: 'noise'; text?: string; base64?: string })
  | (StepBase & { kind: 'stderr'; text: string })
  /** The agent died on its own (an exit the client did not ask for). */
  | (StepBase & { kind: 'exit'; code: number | null; signal: string | null });

export interface ReplayScript {
  steps: ReplayStep[];
  /** Lines over the size limit: not kept in the trace, so they cannot be replayed. */
  skippedOversize: number[];
}

export function buildReplayScript(records: Iterable<{ record: TraceRecord; line: number }>): ReplayScript {
  const steps: ReplayStep[] = [];
  const skippedOversize: number[] = [];
  /** Methods of requests by id, per side. */
  const clientRequests = new Map<string, string>();
  const agentRequests = new Map<string, string>();
  for (const { record, line } of records) {
    const t = record.t;
    switch (record.kind) {
      case 'wire': {
        const msg = record.msg as Json;
        const method = typeof msg.method === 'string' ? msg.method : undefined;
        if (record.dir === 'out') {
          if (method !== undefined && 'id' in msg) {
            clientRequests.set(idKey(msg.id), method);
            steps.push({ kind: 'expect-request', method, id: msg.id as JsonRpcId, params: json(msg.params), line, t });
          } else if (method !== undefined) {
            steps.push({ kind: 'expect-notification', method, params: json(msg.params), line, t });
          } else if ('id' in msg && agentRequests.has(idKey(msg.id))) {
            steps.push({ kind: 'expect-response', id: msg.id as JsonRpcId, method: agentRequests.get(idKey(msg.id))!, msg, line, t });
          }
          break;
        }
        if (method === undefined && 'id' in msg && clientRequests.has(idKey(msg.id))) {
          steps.push({ kind: 'answer', clientId: msg.id as JsonRpcId, method: clientRequests.get(idKey(msg.id))!, msg, line, t });
          clientRequests.delete(idKey(msg.id));
          break;
        }
        if (method !== undefined && 'id' in msg) agentRequests.set(idKey(msg.id), method);
        steps.push({ kind: 'send', msg, line, t });
        break;
      }
      case 'noise':
        if (record.dir === 'in') steps.push({ kind: 'noise', ...('text' in record ? { text: record.text } : { base64: record.base64 }), line, t });
        break;
      case 'oversize':
        if (record.dir === 'in') skippedOversize.push(line);
        break;
      case 'stderr':
        steps.push({ kind: 'stderr', text: record.text, line, t });
        break;
      case 'exit':
        if (!record.expected) steps.push({ kind: 'exit', code: record.code, signal: record.signal, line, t });
        break;
      default:
        break;
    }
  }
  return { steps, skippedOversize };
}

const json = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
