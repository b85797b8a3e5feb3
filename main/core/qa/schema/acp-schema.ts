/**
 * The ACP v1 schema as the conformance rules need it: which methods an agent may call on a client,
 * the params of each, the result of each client→agent method, and the `session/update` variants.
 * Built from the schema the SDK ships (the unstable file, a superset of the stable one: the
 * workbench speaks the unstable entrypoint, so unstable messages are legal, if capability-gated).
 * The methods come from the schema's own `x-side` / `x-method` markers.
 */
import schemaJson from '@agentclientprotocol/sdk/schema/v1/schema.unstable.json';
import { PLAIN_UPDATE_KINDS, plainSessionUpdate, type PlainUpdateEnums } from './plain-updates';
import { SchemaCompiler, type SchemaIssue } from './validator';

type Json = Record<string, unknown>;
type Validate = (value: unknown, path: string, issues: SchemaIssue[]) => boolean;

interface MethodSchema {
  /** `$defs` name, for messages. */
  name: string;
  /** Type has no required property (a `null` result is then read as `{}`, as the SDK does). */
  optionalOnly: boolean;
}

export interface ValidationOutcome {
  errors: SchemaIssue[];
  tolerated: SchemaIssue[];
}

class AcpSchema {
  private readonly compiler: SchemaCompiler;
  private readonly defs: Record<string, Json>;
  /** Requests and notifications the client implements (agent → client), by method. */
  readonly clientMethods = new Map<string, MethodSchema>();
  /** Results of requests the agent implements (client → agent), by method. */
  readonly agentResults = new Map<string, MethodSchema>();
  /** Methods the agent implements (for "wrong direction" messages). */
  readonly agentMethods = new Set<string>();
  readonly updateKinds: ReadonlySet<string>;
  private readonly validators = new Map<string, Validate>();
  /** The enums the fast path of the hot updates needs, read from the schema. */
  private readonly plainEnums: PlainUpdateEnums;
  /** `session/update` is a client method and every kind the fast path accepts is defined (see `plainUpdate`). */
  private readonly plainUpdatesDefined: boolean;

  constructor(root: Json) {
    this.compiler = new SchemaCompiler(root);
    this.defs = (root.$defs ?? {}) as Record<string, Json>;
    for (const [name, def] of Object.entries(this.defs)) {
      const method = def['x-method'];
      const side = def['x-side'];
      if (typeof method !== 'string') continue;
      const entry: MethodSchema = { name, optionalOnly: !Array.isArray(def.required) || def.required.length === 0 };
      const isResult = name.endsWith('Response');
      if ((side === 'client' || side === 'protocol') && !isResult) this.clientMethods.set(method, entry);
      if (side === 'agent' && isResult) this.agentResults.set(method, entry);
      if (side === 'agent' && !isResult) this.agentMethods.add(method);
    }
    const variants = (this.defs.SessionUpdate?.oneOf ?? []) as Json[];
    this.updateKinds = new Set(
      variants.map((v) => ((v.properties as Json | undefined)?.sessionUpdate as Json | undefined)?.const).filter((k): k is string => typeof k === 'string'),
    );
    const constants = (name: string) => new Set(((this.defs[name]?.oneOf ?? []) as Json[]).filter((v) => 'const' in v).map((v) => v.const));
    this.plainEnums = { toolKinds: constants('ToolKind'), toolStatuses: constants('ToolCallStatus') };
    this.plainUpdatesDefined = this.clientMethods.has('session/update') && PLAIN_UPDATE_KINDS.every((k) => this.updateKinds.has(k));
  }

  /**
   * True when `session/update` params are one of the plain shapes (plain-updates.ts) and
   * `validateParams` would find them clean: the method is a client method of this schema and the
   * update's kind one it defines. The engine's fast path (plain-update.ts) asks this.
   */
  plainUpdate(params: unknown): boolean {
    return this.plainUpdatesDefined && plainSessionUpdate(params, this.plainEnums);
  }

  /** Params of an incoming request/notification; undefined when the method is not a client method. */
  validateParams(method: string, params: unknown): ValidationOutcome | undefined {
    const schema = this.clientMethods.get(method);
    if (!schema) return undefined;
    // The hot updates in their plain shapes: certainly valid (see plain-updates.ts).
    if (method === 'session/update' && plainSessionUpdate(params, this.plainEnums)) return { errors: [], tolerated: [] };
    return this.validateParamsFully(method, params);
  }

  /** Params through the full validator, without the fast path (what the fast path is proven against). */
  validateParamsFully(method: string, params: unknown): ValidationOutcome | undefined {
    const schema = this.clientMethods.get(method);
    if (!schema) return undefined;
    return this.run(schema.name, params === undefined && schema.optionalOnly ? {} : params, 'params');
  }

  /** The result of one of our requests; undefined when the method has no result schema. */
  validateResult(method: string, result: unknown): ValidationOutcome | undefined {
    const schema = this.agentResults.get(method);
    if (!schema) return undefined;
    return this.run(schema.name, result === null && schema.optionalOnly ? {} : result, 'result');
  }

  private run(definition: string, value: unknown, path: string): ValidationOutcome {
    let validate = this.validators.get(definition);
    if (!validate) {
      validate = this.compiler.definition(definition);
      this.validators.set(definition, validate);
    }
    const issues: SchemaIssue[] = [];
    validate(value, path, issues);
    return { errors: issues.filter((i) => !i.tolerated), tolerated: issues.filter((i) => i.tolerated) };
  }
}

let instance: AcpSchema | undefined;

/** The schema, compiled lazily on first use and shared (validators are cached per definition). */
export function acpSchema(): AcpSchema {
  instance ??= new AcpSchema(schemaJson as unknown as Json);
  return instance;
}

export type { AcpSchema };
