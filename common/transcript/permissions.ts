/**
 * Permission requests (acp-reference §9): shown on their tool call (created lazily when the agent
 * never announced it, §22.7), with the request's own content kept beside the call's diff, and the
 * decision recorded from our answer on the wire and/or the workbench's `permission-decided` event
 * (which alone knows who decided). Option ids are agent-specific: the kind is looked up and kept.
 */
import { isJsonObject, obj, str, type JsonObject, type JsonValue } from '../trace/json';
import type { JsonRpcId, PermissionDecidedRecord } from '../trace/records';
import { asPermissionOptions } from './normalize';
import type { PermissionPatch } from './patches';
import { rpcKey } from './reducer-state';
import type { Step } from './step';
import { toolCallFields, toolCallForPermission } from './tool-calls';

export function onPermissionRequest(
  step: Step,
  requestId: JsonRpcId,
  params: { toolCall?: JsonObject | undefined; toolCallId?: string | undefined; options?: JsonValue[] | undefined; context?: JsonValue[] | undefined },
): void {
  const key = rpcKey(requestId);
  // The wire request and the workbench's `permission-asked` event describe the same request.
  if (step.s.permissions.has(key)) return;
  step.disarmEcho();
  const toolCall = params.toolCall ?? (params.toolCallId !== undefined ? { toolCallId: params.toolCallId } : undefined);
  const { entryId, merged, hadDiff } = toolCallForPermission(step, toolCall, params.toolCallId ?? `permission:${key}`);
  const options = asPermissionOptions(params.options);
  // A diff the call already shows is not context; anything else the request carries is.
  const fromCall = toolCall && !merged ? toolCallFields(toolCall).content?.filter((c) => !(hadDiff && c.type === 'diff')) : undefined;
  // The workbench's own requests say why they ask (permission-asked `context`).
  const own = params.context ? toolCallFields({ content: params.context }).content : undefined;
  const context = own?.length ? [...own, ...(fromCall ?? [])] : fromCall;
  const permission: PermissionPatch = { requestId, t: step.t, options, status: 'pending' };
  if (context && context.length > 0) permission.context = context;
  step.emit({ op: 'upsert-permission', id: entryId, permission });
  step.map('permissions').set(key, { entryId, options });
}

/** Our JSON-RPC answer to a permission request. */
export function onPermissionAnswer(step: Step, requestId: JsonRpcId, msg: JsonObject): void {
  const known = step.s.permissions.get(rpcKey(requestId));
  if (!known) return;
  let permission: PermissionPatch;
  if (msg.error !== undefined) {
    const message = isJsonObject(msg.error) ? str(msg.error, 'message') : undefined;
    permission = { requestId, status: 'failed', error: message ?? 'error', decidedT: step.t };
  } else {
    const outcome = obj(obj(msg, 'result'), 'outcome');
    permission = decision(known.options, requestId, str(outcome, 'outcome'), str(outcome, 'optionId'), step.t);
  }
  step.emit({ op: 'upsert-permission', id: known.entryId, permission });
}

export function onPermissionDecided(step: Step, r: PermissionDecidedRecord): void {
  const known = step.s.permissions.get(rpcKey(r.requestId));
  if (!known) return;
  const permission = decision(known.options, r.requestId, r.outcome, r.optionId, r.t);
  permission.decidedBy = r.by;
  if (r.rule !== undefined) permission.rule = r.rule;
  step.emit({ op: 'upsert-permission', id: known.entryId, permission });
}

/** The agent withdrew its request (`$/cancel_request`), e.g. during its own cancel cascade. */
export function onPermissionWithdrawn(step: Step, requestId: JsonRpcId): void {
  const known = step.s.permissions.get(rpcKey(requestId));
  if (!known) return;
  step.emit({ op: 'upsert-permission', id: known.entryId, permission: { requestId, status: 'cancelled', decidedBy: 'agent', decidedT: step.t } });
}

function decision(
  options: readonly { optionId: string; name: string; kind: string }[],
  requestId: JsonRpcId,
  outcome: string | undefined,
  optionId: string | undefined,
  t: number,
): PermissionPatch {
  if (outcome !== 'selected' || optionId === undefined) return { requestId, status: 'cancelled', decidedT: t };
  const option = options.find((o) => o.optionId === optionId);
  const out: PermissionPatch = { requestId, status: 'selected', optionId, decidedT: t };
  if (option) {
    out.optionKind = option.kind as PermissionPatch['optionKind'];
    out.optionName = option.name;
  }
  return out;
}
