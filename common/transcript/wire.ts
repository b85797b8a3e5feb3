/**
 * Wire messages in both directions. Requests are remembered by id in two separate spaces — a
 * response from the agent answers one of OUR requests, a response we send answers one of the
 * agent's — because both sides count from 0 (real-agents.md: "the same numbers as the client's").
 */
import { arr, num, obj, str, type JsonObject, type JsonValue } from '../trace/json';
import type { JsonRpcId, WireRecord } from '../trace/records';
import type { TerminalInfo } from './model';
import { asConfigOptions, asModels, asModes, errorOf } from './normalize';
import { onPermissionAnswer, onPermissionRequest, onPermissionWithdrawn } from './permissions';
import { rpcKey, type OurRequest, type TheirRequest } from './reducer-state';
import { changeMode, replaceConfigOptions, setConfigValue } from './session-updates';
import type { Step } from './step';
import { appendError, endTurn, requestCancel, startTurn } from './turns';
import { onSessionUpdate } from './updates';

/** Our requests whose answers change the transcript. */
const TRACKED_OURS = new Set([
  'initialize',
  'authenticate',
  'session/new',
  'session/load',
  'session/resume',
  'session/fork',
  'session/prompt',
  'session/set_mode',
  'session/set_config_option',
  'session/set_model',
]);
const TRACKED_THEIRS = new Set([
  'session/request_permission',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'terminal/wait_for_exit',
  'terminal/kill',
  'terminal/release',
]);

const isId = (v: JsonValue | undefined): v is string | number => typeof v === 'string' || typeof v === 'number';

export function onWire(step: Step, r: WireRecord): void {
  const msg = r.msg;
  const params = obj(msg, 'params');
  if (typeof msg.method === 'string') {
    const hasId = isId(msg.id);
    if (r.dir === 'in') {
      if (hasId) onAgentRequest(step, msg.id as JsonRpcId, msg.method, params);
      else onAgentNotification(step, msg.method, params, msg);
    } else if (hasId) onOurRequest(step, msg.id as JsonRpcId, msg.method, params);
    else if (msg.method === 'session/cancel') requestCancel(step);
    return;
  }
  // Responses with id null answer nothing (agents reply so to lines they could not parse).
  if (!isId(msg.id)) return;
  if (r.dir === 'in') onAgentResponse(step, msg.id, msg);
  else onOurResponse(step, msg.id, msg);
}

function onAgentNotification(step: Step, method: string, params: JsonObject | undefined, msg: JsonObject): void {
  if (method === 'session/update') onSessionUpdate(step, params ? (params.update ?? params) : (msg.params ?? null));
  else if (method === '$/cancel_request' && isId(params?.requestId)) onPermissionWithdrawn(step, params.requestId as JsonRpcId);
}

function onOurRequest(step: Step, id: JsonRpcId, method: string, params: JsonObject | undefined): void {
  if (!TRACKED_OURS.has(method)) return;
  const request: OurRequest = { method, t: step.t };
  switch (method) {
    case 'session/prompt':
      startTurn(step, { requestId: id, prompt: arr(params, 'prompt') ?? [], messageId: str(params, 'messageId') });
      request.turn = step.s.turn.n;
      break;
    case 'session/set_mode':
      request.modeId = str(params, 'modeId');
      break;
    case 'session/set_config_option':
      request.configId = str(params, 'configId');
      if (params?.value !== undefined) request.value = params.value;
      break;
    case 'session/set_model':
      request.modelId = str(params, 'modelId');
      break;
    case 'session/load':
      step.s.loading = true;
      step.s.open = null;
      break;
  }
  step.map('ours').set(rpcKey(id), request);
}

function onAgentResponse(step: Step, id: JsonRpcId, msg: JsonObject): void {
  const key = rpcKey(id);
  const request = step.s.ours.get(key);
  if (!request) return;
  step.map('ours').delete(key);
  if (request.method === 'session/prompt') return endTurn(step, request, msg);
  if (request.method === 'session/load') {
    step.s.loading = false;
    step.s.open = null;
  }
  if (msg.error !== undefined) {
    appendError(step, { ...errorOf(msg.error), method: request.method, source: 'response' });
    return;
  }
  const result = obj(msg, 'result');
  switch (request.method) {
    case 'session/set_mode':
      // The empty answer is the confirmation; agents need not send current_mode_update (§22.10).
      if (request.modeId !== undefined) changeMode(step, request.modeId, 'set_mode');
      return;
    case 'session/set_config_option':
      return onConfigOptionResult(step, request, result);
    case 'session/set_model':
      return onModelResult(step, request);
    case 'session/new':
    case 'session/load':
    case 'session/resume':
    case 'session/fork':
      return onSessionResult(step, result);
  }
}

function onConfigOptionResult(step: Step, request: OurRequest, result: JsonObject | undefined): void {
  if (Array.isArray(result?.configOptions)) {
    replaceConfigOptions(step, asConfigOptions(result.configOptions), 'set_config_option');
    return;
  }
  // An agent that answers without the option set: apply the one value we asked for.
  if (request.configId === undefined || request.value === undefined) return;
  const before = step.s.configValues.get(request.configId);
  if (!before || JSON.stringify(before.value) === JSON.stringify(request.value)) return;
  setConfigValue(step, request.configId, request.value);
  const change = { configId: request.configId, from: before.value, to: request.value, ...(before.name !== undefined ? { name: before.name } : {}) };
  step.append({ kind: 'config_change', changes: [change], source: 'set_config_option' });
}

function onModelResult(step: Step, request: OurRequest): void {
  if (request.modelId === undefined) return;
  const from = step.s.models?.currentModelId;
  if (from === request.modelId) return;
  step.s.models = { currentModelId: request.modelId, availableModels: step.s.models?.availableModels ?? [] };
  step.setSession({ models: step.s.models });
  step.append({ kind: 'config_change', changes: [{ configId: 'model', name: 'Model', to: request.modelId, ...(from !== undefined ? { from } : {}) }], source: 'set_model' });
}

/** new / load / resume / fork answered: the session's starting modes, options and models (null result allowed, §22.15). */
function onSessionResult(step: Step, result: JsonObject | undefined): void {
  const agentSessionId = str(result, 'sessionId');
  if (agentSessionId !== undefined && agentSessionId !== step.s.agentSessionId) {
    step.s.agentSessionId = agentSessionId;
    step.setSession({ agentSessionId });
  }
  const modes = asModes(result?.modes);
  if (modes) {
    step.s.modes = modes;
    step.setSession({ modes });
  }
  const models = asModels(result?.models);
  if (models) {
    step.s.models = models;
    step.setSession({ models });
  }
  if (Array.isArray(result?.configOptions)) replaceConfigOptions(step, asConfigOptions(result.configOptions), 'agent', true);
}

function onAgentRequest(step: Step, id: JsonRpcId, method: string, params: JsonObject | undefined): void {
  if (!TRACKED_THEIRS.has(method)) return;
  const request: TheirRequest = { method, t: step.t };
  const terminalId = str(params, 'terminalId');
  if (terminalId !== undefined) request.terminalId = terminalId;
  switch (method) {
    case 'session/request_permission':
      onPermissionRequest(step, id, { toolCall: obj(params, 'toolCall'), options: arr(params, 'options') });
      break;
    case 'fs/write_text_file': {
      const changeId = `req:${rpcKey(id)}`;
      step.map('fileChanges').set(changeId, true);
      const toolCallId = step.s.activeToolCallId;
      step.emit({
        op: 'upsert-file-change',
        change: { id: changeId, path: str(params, 'path') ?? '', newText: str(params, 'content') ?? '', t: step.t, turn: step.s.turn.n, ...(toolCallId ? { toolCallId } : {}) },
      });
      break;
    }
    case 'terminal/create': {
      // claude-code-acp sends the whole shell line in `command`, without args or cwd.
      const command = str(params, 'command');
      const args = arr(params, 'args')?.filter((a): a is string => typeof a === 'string');
      const cwd = str(params, 'cwd');
      if (command !== undefined) request.command = command;
      if (args) request.args = args;
      if (cwd !== undefined) request.cwd = cwd;
      break;
    }
  }
  step.map('theirs').set(rpcKey(id), request);
}

function onOurResponse(step: Step, id: JsonRpcId, msg: JsonObject): void {
  const key = rpcKey(id);
  const request = step.s.theirs.get(key);
  if (!request) return;
  step.map('theirs').delete(key);
  if (request.method === 'session/request_permission') return onPermissionAnswer(step, id, msg);
  const failed = msg.error !== undefined;
  if (request.method === 'fs/write_text_file') {
    if (failed) step.emit({ op: 'upsert-file-change', change: { id: `req:${key}`, error: errorOf(msg.error).message } });
    return;
  }
  if (failed) return;
  const result = obj(msg, 'result');
  const terminalId = request.terminalId ?? str(result, 'terminalId');
  if (terminalId === undefined) return;
  const fields = terminalFields(request, result);
  if (fields) step.emit({ op: 'upsert-terminal', terminalId, fields });
}

function terminalFields(request: TheirRequest, result: JsonObject | undefined): Partial<TerminalInfo> | undefined {
  switch (request.method) {
    case 'terminal/create':
      return {
        status: 'running',
        ...(request.command !== undefined ? { command: request.command } : {}),
        ...(request.args ? { args: request.args } : {}),
        ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
      };
    case 'terminal/output': {
      const exit = obj(result, 'exitStatus');
      return {
        ...(typeof result?.output === 'string' ? { output: result.output } : {}),
        ...(typeof result?.truncated === 'boolean' ? { truncated: result.truncated } : {}),
        ...(exit ? exitFields(exit) : {}),
      };
    }
    case 'terminal/wait_for_exit':
      return result ? exitFields(result) : undefined;
    case 'terminal/kill':
      return { status: 'killed' };
    case 'terminal/release':
      return { released: true };
  }
  return undefined;
}

function exitFields(exit: JsonObject): { status: 'exited'; exitCode: number | null; signal: string | null } {
  return { status: 'exited', exitCode: num(exit, 'exitCode') ?? null, signal: str(exit, 'signal') ?? null };
}
