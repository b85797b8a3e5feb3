/** Updates the transcript has no kind for are kept whole as entries, never dropped (acp-reference §22). */
import { isJsonObject, type JsonValue } from '../trace/json';
import type { Step } from './step';

export function appendUnknownUpdate(step: Step, raw: JsonValue): void {
  const sessionUpdate = isJsonObject(raw) && typeof raw.sessionUpdate === 'string' ? raw.sessionUpdate : null;
  step.append({ kind: 'unknown_update', sessionUpdate, raw });
}
