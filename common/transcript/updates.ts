/** `session/update` notifications, by `sessionUpdate` variant (acp-reference §6). */
import { isJsonObject, str, type JsonValue } from '../trace/json';
import { CHUNK_KINDS, onMessageChunk } from './chunks';
import { onAvailableCommands, onConfigOptionUpdate, onModeUpdate, onPlan, onSessionInfo, onUsage } from './session-updates';
import type { Step } from './step';
import { onToolCall, onToolCallUpdate } from './tool-calls';
import { appendUnknownUpdate } from './unknown';

export function onSessionUpdate(step: Step, update: JsonValue | undefined): void {
  if (!isJsonObject(update)) {
    appendUnknownUpdate(step, update ?? null);
    return;
  }
  const variant = str(update, 'sessionUpdate');
  const chunkKind = variant !== undefined ? CHUNK_KINDS[variant] : undefined;
  if (chunkKind) return onMessageChunk(step, chunkKind, update);
  switch (variant) {
    case 'tool_call':
      return onToolCall(step, update);
    case 'tool_call_update':
      return onToolCallUpdate(step, update);
    case 'plan':
      return onPlan(step, update);
    case 'available_commands_update':
      return onAvailableCommands(step, update);
    case 'current_mode_update':
      return onModeUpdate(step, update);
    case 'config_option_update':
      return onConfigOptionUpdate(step, update);
    case 'session_info_update':
      return onSessionInfo(step, update);
    case 'usage_update':
      return onUsage(step, update);
    case 'notice': {
      const description = update.description;
      step.append({
        kind: 'notice',
        severity: str(update, 'severity') ?? 'info',
        title: str(update, 'title') ?? '',
        source: 'agent',
        ...(typeof description === 'string' || description === null ? { description } : {}),
      });
      return;
    }
    default:
      return appendUnknownUpdate(step, update);
  }
}
