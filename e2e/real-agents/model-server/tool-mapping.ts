/**
 * Maps an abstract scenario action onto a tool the calling agent actually offered, by name and
 * input schema: Claude's `Edit`, opencode's `edit`, gemini's `replace` and codex's `apply_patch`
 * all carry out `edit`. Arguments are filled by property name from the tool's own schema, so a
 * renamed field (`file_path` vs `filePath`) needs no code change.
 */
import type { Action, PlanItem } from './scenarios';
import type { JsonSchema, ToolDef } from './types';

export interface MappedCall {
  tool: ToolDef;
  input: Record<string, unknown>;
  /** For free-form tools (codex's custom `apply_patch`): the raw input string. */
  rawInput?: string;
}

const TOOL_NAMES: Record<'read' | 'edit' | 'write' | 'shell' | 'plan', string[]> = {
  read: ['read', 'read_file', 'readfile', 'view'],
  edit: ['edit', 'replace', 'edit_file', 'str_replace'],
  write: ['write', 'write_file', 'create_file'],
  shell: ['bash', 'shell', 'run_shell_command', 'shell_command', 'exec_command', 'execute', 'run_terminal_cmd'],
  plan: ['todowrite', 'todo_write', 'update_plan', 'write_todos'],
};

/** Claude Code ≥ 2.1 in SDK mode has no TodoWrite: one `TaskCreate` per plan entry instead. */
const TASK_CREATE = 'taskcreate';

const ALIASES = {
  path: ['file_path', 'filePath', 'absolute_path', 'path', 'file', 'target_file'],
  oldText: ['old_string', 'oldString', 'old_str', 'old_text'],
  newText: ['new_string', 'newString', 'new_str', 'new_text'],
  content: ['content', 'contents', 'file_text', 'text'],
  command: ['command', 'cmd'],
  itemText: ['content', 'description', 'step', 'title', 'text', 'task'],
  planList: ['todos', 'plan', 'items', 'tasks'],
};

/** The tool calls (made in one reply) carrying out `action`, or null when the agent offers no tool for it. */
export function mapAction(action: Action, tools: ToolDef[]): MappedCall[] | null {
  if (action.kind === 'plan') {
    const todo = findTool(tools, TOOL_NAMES.plan, ALIASES.planList);
    if (todo) return [{ tool: todo, input: planInput(todo, action.entries) }];
    const task = tools.find((t) => t.name.toLowerCase() === TASK_CREATE);
    if (task) return action.entries.map((entry) => ({ tool: task, input: taskInput(task, entry) }));
    return null;
  }
  const call = mapSingle(action, tools);
  return call ? [call] : null;
}

function mapSingle(action: Action, tools: ToolDef[]): MappedCall | null {
  switch (action.kind) {
    case 'read': {
      const tool = findTool(tools, TOOL_NAMES.read, ALIASES.path);
      return tool ? { tool, input: fill(tool, { path: action.path }) } : null;
    }
    case 'edit': {
      const tool = findTool(tools, TOOL_NAMES.edit, ALIASES.oldText);
      if (tool) return { tool, input: fill(tool, { path: action.path, oldText: action.oldText, newText: action.newText }) };
      return viaPatch(tools, updatePatch(action.path, action.oldText, action.newText));
    }
    case 'write': {
      const tool = findTool(tools, TOOL_NAMES.write, ALIASES.content);
      if (tool) return { tool, input: fill(tool, { path: action.path, content: action.content }) };
      return viaPatch(tools, addPatch(action.path, action.content));
    }
    case 'shell': {
      const tool = findTool(tools, TOOL_NAMES.shell, ALIASES.command);
      return tool ? { tool, input: shellInput(tool, action.command, action.escalate) } : null;
    }
    default:
      return null;
  }
}

function findTool(tools: ToolDef[], names: string[], needsOneOf: string[]): ToolDef | undefined {
  for (const name of names) {
    const tool = tools.find((t) => t.name.toLowerCase() === name && t.type === 'function');
    if (tool && (!tool.schema?.properties || hasAny(tool.schema, needsOneOf))) return tool;
  }
  return undefined;
}

function hasAny(schema: JsonSchema, keys: string[]): boolean {
  return keys.some((k) => schema.properties?.[k] !== undefined);
}

function pick(schema: JsonSchema | undefined, aliases: string[]): string | undefined {
  return aliases.find((k) => schema?.properties?.[k] !== undefined);
}

function fill(tool: ToolDef, values: Partial<Record<'path' | 'oldText' | 'newText' | 'content', string>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    const key = pick(tool.schema, ALIASES[field as keyof typeof values]) ?? field;
    input[key] = value;
  }
  fillRequired(tool, input);
  return input;
}

/** Required fields the script has no value for (gemini's `replace` wants an `instruction`). */
function fillRequired(tool: ToolDef, input: Record<string, unknown>): void {
  for (const name of tool.schema?.required ?? []) {
    const prop = tool.schema?.properties?.[name];
    if (!(name in input) && prop) input[name] = defaultFor(prop, `Scripted step (${tool.name})`);
  }
}

function shellInput(tool: ToolDef, command: string, escalate: boolean): Record<string, unknown> {
  const key = pick(tool.schema, ALIASES.command) ?? 'command';
  const prop = tool.schema?.properties?.[key];
  // codex's `shell` takes an argv array; everyone else a shell line.
  const value = isArrayType(prop) ? ['bash', '-lc', command] : command;
  const input: Record<string, unknown> = { [key]: value };
  if (tool.schema?.properties?.['description']) input['description'] = `Run ${command}`;
  const sandbox = tool.schema?.properties?.['sandbox_permissions'];
  if (escalate && sandbox?.enum?.includes('require_escalated')) {
    input['sandbox_permissions'] = 'require_escalated';
    input['justification'] = 'The scripted step writes a file outside the read-only sandbox.';
  }
  fillRequired(tool, input);
  return input;
}

function planInput(tool: ToolDef, entries: PlanItem[]): Record<string, unknown> {
  const key = pick(tool.schema, ALIASES.planList) ?? 'todos';
  const itemSchema = tool.schema?.properties?.[key]?.items;
  const items = entries.map((entry, i) => planItem(itemSchema, entry, i));
  const input: Record<string, unknown> = { [key]: items };
  if (tool.schema?.properties?.['explanation']) input['explanation'] = 'Scripted plan';
  return input;
}

function taskInput(tool: ToolDef, entry: PlanItem): Record<string, unknown> {
  const input: Record<string, unknown> = { subject: entry.content, description: entry.content };
  if (tool.schema?.properties?.['activeForm']) input['activeForm'] = `Working on: ${entry.content}`;
  return input;
}

function planItem(schema: JsonSchema | undefined, entry: PlanItem, index: number): Record<string, unknown> {
  const props = schema?.properties ?? {};
  const textKey = pick(schema, ALIASES.itemText) ?? 'content';
  const item: Record<string, unknown> = { [textKey]: entry.content };
  for (const [name, prop] of Object.entries(props)) {
    if (name === textKey) continue;
    if (name === 'status') item[name] = enumValue(prop, entry.status);
    else if (name === 'activeForm') item[name] = `Working on: ${entry.content}`;
    else if (name === 'priority') item[name] = enumValue(prop, 'medium');
    else if (name === 'id') item[name] = String(index + 1);
    else if (schema?.required?.includes(name)) item[name] = defaultFor(prop, entry.content);
  }
  if (!('status' in item)) item['status'] = entry.status;
  return item;
}

function enumValue(schema: JsonSchema, wanted: string): unknown {
  const values = schema.enum ?? schema.anyOf?.flatMap((s) => s.enum ?? (s['const'] !== undefined ? [s['const']] : []));
  if (!values || values.length === 0 || values.includes(wanted)) return wanted;
  return values[0];
}

function defaultFor(schema: JsonSchema, text: string): unknown {
  const type = schemaType(schema);
  if (schema.enum?.length) return schema.enum[0];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return text;
}

/** Lower-cased first type: Gemini-style schemas spell types in capitals (`ARRAY`). */
function schemaType(schema: JsonSchema | undefined): string | undefined {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  return type?.toLowerCase();
}

function isArrayType(schema: JsonSchema | undefined): boolean {
  return schemaType(schema) === 'array';
}

/** codex edits files with `apply_patch`: a free-form tool, a function tool, or the shell command. */
function viaPatch(tools: ToolDef[], patch: string): MappedCall | null {
  const tool = tools.find((t) => t.name === 'apply_patch');
  if (tool?.type === 'custom') return { tool, input: {}, rawInput: patch };
  if (tool) return { tool, input: { [pick(tool.schema, ['input', 'patch']) ?? 'input']: patch } };
  const shell = findTool(tools, TOOL_NAMES.shell, ALIASES.command);
  const key = shell && (pick(shell.schema, ALIASES.command) ?? 'command');
  if (shell && key && isArrayType(shell.schema?.properties?.[key])) return { tool: shell, input: { [key]: ['apply_patch', patch] } };
  return null;
}

export function updatePatch(path: string, oldText: string, newText: string): string {
  const minus = oldText.split('\n').map((l) => `-${l}`);
  const plus = newText.split('\n').map((l) => `+${l}`);
  return ['*** Begin Patch', `*** Update File: ${path}`, '@@', ...minus, ...plus, '*** End Patch', ''].join('\n');
}

export function addPatch(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return ['*** Begin Patch', `*** Add File: ${path}`, ...lines.map((l) => `+${l}`), '*** End Patch', ''].join('\n');
}
