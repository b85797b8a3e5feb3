/**
 * Decides the reply to one model request. Stateless: the scenario comes from the marker in the
 * latest user message that has one, and the step from how many tool-call runs follow that message
 * (a request carrying the results of step N gets step N+1). Requests without tools (titles, quota
 * probes) and requests for structured JSON (title schemas, gemini's next-speaker check) get short
 * side answers.
 */
import { newId } from './sse';
import { mapAction } from './tool-mapping';
import { guessCwd, parseMarker, scenarioActions, type Action } from './scenarios';
import type { ConversationEntry, JsonSchema, ModelReply, NormalizedRequest, ReplyRecord, ToolCallOut } from './types';

export interface PlayResult {
  reply: ModelReply;
  record: ReplyRecord;
}

export function play(req: NormalizedRequest): PlayResult {
  const base = { time: new Date().toISOString(), api: req.api, model: req.model };
  if (req.jsonSchema) {
    const text = JSON.stringify(sampleFromSchema(req.jsonSchema));
    return { reply: textReply(text), record: { ...base, scenario: null, step: 0, action: 'side-request', note: 'json' } };
  }

  const markerIndex = findLastIndex(req.conversation, (e) => e.role === 'user' && parseMarker(e.text) !== null);
  const markerEntry = req.conversation[markerIndex];
  const marker = markerEntry?.role === 'user' ? parseMarker(markerEntry.text) : null;
  if (req.tools.length === 0) {
    // Titles, summaries, quota probes: anything without tools is not the agent's main loop.
    return { reply: textReply('Scripted session'), record: { ...base, scenario: marker?.name ?? null, step: 0, action: 'side-request' } };
  }
  if (!marker) {
    return { reply: textReply(DEFAULT_TEXT), record: { ...base, scenario: null, step: 0, action: 'text' } };
  }

  const after = req.conversation.slice(markerIndex + 1);
  const { step, lastResults } = progress(after);
  const record: ReplyRecord = { ...base, scenario: marker.name, step, action: 'text' };
  if (lastResults.length > 0) {
    record.previousToolResult = lastResults.map((r) => r.text).join('\n').slice(0, 4000);
    if (lastResults.some((r) => r.isError)) record.previousToolResultIsError = true;
  }

  const cwd = guessCwd([req.system, ...req.conversation.filter((e) => e.role === 'user').map((e) => e.text)]);
  const actions = scenarioActions(marker, cwd);
  if (!actions) {
    record.note = `unknown scenario ${marker.name}`;
    return { reply: textReply(`Scripted model: unknown scenario "${marker.name}".`), record };
  }

  const steps = resolveSteps(actions, req);
  const current = steps[Math.min(step, steps.length - 1)]!;
  record.action = current.action.kind;
  if (current.calls) {
    record.toolName = current.calls.map((c) => c.name).join(',');
    record.toolInput = current.calls.map((c) => c.rawInput ?? c.input);
    const preface = `Step ${step + 1}: ${current.action.kind} with ${record.toolName}.`;
    return { reply: { textChunks: [preface], toolCalls: current.calls, frameDelayMs: 0 }, record };
  }
  if (current.action.kind === 'slow-text') {
    const chunks = Array.from({ length: current.action.chunks }, (_, i) => `word${i + 1} `);
    return { reply: { textChunks: chunks, toolCalls: [], frameDelayMs: current.action.intervalMs }, record };
  }
  if (current.note) record.note = current.note;
  return { reply: textReply(current.action.kind === 'text' ? current.action.text : current.note ?? ''), record };
}

const DEFAULT_TEXT = 'Hello from the scripted model. Add a [scenario:name] marker to the prompt to choose a script.';

interface Step {
  action: Action;
  calls?: ToolCallOut[];
  note?: string;
}

/**
 * How many scripted tool steps the conversation has completed: runs of assistant tool calls (one
 * reply may hold several calls, and the Responses API lists each call as its own item), plus the
 * tool results of the latest run.
 */
function progress(entries: ConversationEntry[]): { step: number; lastResults: Extract<ConversationEntry, { role: 'tool_result' }>[] } {
  let step = 0;
  let inRun = false;
  let lastResults: Extract<ConversationEntry, { role: 'tool_result' }>[] = [];
  for (const entry of entries) {
    if (entry.role === 'assistant' && entry.toolCalls.length > 0) {
      if (!inRun) {
        step++;
        lastResults = [];
      }
      inRun = true;
    } else if (entry.role === 'tool_result') {
      lastResults.push(entry);
      inRun = false;
    } else if (entry.role === 'user' || entry.text) {
      inRun = false;
    }
  }
  return { step, lastResults };
}

/**
 * Scenario actions as this agent can play them: optional actions without a matching tool are
 * dropped; a required one without a tool ends the scenario with a text saying so.
 */
function resolveSteps(actions: Action[], req: NormalizedRequest): Step[] {
  const steps: Step[] = [];
  for (const action of actions) {
    if (action.kind === 'text' || action.kind === 'slow-text') {
      steps.push({ action });
      continue;
    }
    const mapped = mapAction(action, req.tools);
    if (!mapped) {
      if ('optional' in action && action.optional) continue;
      const names = req.tools.map((t) => t.name).join(', ');
      const note = `Scripted model: the agent offered no tool for "${action.kind}" (tools: ${names}).`;
      steps.push({ action: { kind: 'text', text: note }, note });
      break;
    }
    const calls = mapped.map((m) => {
      const call: ToolCallOut = { id: newId(req.api === 'anthropic' ? 'toolu_' : 'call_'), name: m.tool.name, input: m.input };
      if (m.rawInput !== undefined) call.rawInput = m.rawInput;
      return call;
    });
    steps.push({ action, calls });
  }
  return steps;
}

export function textReply(text: string): ModelReply {
  // A few chunks, so clients see a real stream rather than one delta.
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / 3));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(''));
  return { textChunks: chunks.length ? chunks : [''], toolCalls: [], frameDelayMs: 0 };
}

/** A value satisfying a JSON schema, for structured-output side requests. */
export function sampleFromSchema(schema: JsonSchema, key = ''): unknown {
  if (key === 'next_speaker') return 'user';
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type?.toLowerCase()) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(schema.properties ?? {})) out[name] = sampleFromSchema(prop, name);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer':
      return 0;
    default:
      return key === 'title' ? 'Scripted session' : 'scripted';
  }
}

function findLastIndex<T>(items: T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
