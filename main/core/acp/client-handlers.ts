/**
 * The requests an agent sends us (acp-reference §5.2), wired into the SDK's client app: permission
 * requests go to the session they belong to; fs and terminal requests to the confined handlers —
 * but only when we advertised the capability (QA can switch each off); anything else is answered
 * -32601, as the spec asks for unknown and `_`-prefixed methods. QA fault rules and manual answers
 * (`faults`) are asked first, after the capability check.
 */
import type {
  ClientApp,
  CreateElicitationRequest,
  CreateElicitationResponse,
  CreateTerminalRequest,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReleaseTerminalRequest,
  RequestError,
  RequestPermissionRequest,
  RequestPermissionResponse,
  TerminalOutputRequest,
  WaitForTerminalExitRequest,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk/unstable';
import type { JsonRpcId } from '../../../common/trace/records';
import { clientMethodAllowed, type ClientCapabilitySwitches } from './client-capabilities';
import type { FsAccess, FsRequestContext } from './fs-access';
import type { SensitiveFileAccess, SensitiveFileVerdict } from './sensitive-file-gate';
import type { TerminalManager } from './terminals';
import { requestError, sdk } from './sdk-runtime';

export interface SessionHandlers {
  /** Decide a permission request (policy, remembered answers, or the user); `signal` aborts on `$/cancel_request`. */
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal, requestId?: string | number | null): Promise<RequestPermissionResponse>;
  /** Ask the user for structured input (absent where no UI can show a form). */
  requestElicitation?(params: CreateElicitationRequest, signal: AbortSignal, requestId?: string | number | null): Promise<CreateElicitationResponse>;
  /**
   * A person's yes or no to an fs read or write of a sensitive file (sensitive-file-gate.ts);
   * absent: refused, as where nobody can answer.
   */
  approveSensitiveFile?(access: SensitiveFileAccess, signal: AbortSignal, requestId?: string | number | null): Promise<SensitiveFileVerdict>;
}

/** QA (main/core/qa/faults): fault rules and manual answers, asked before the normal handler. */
export interface ClientRequestInterceptor {
  /**
   * `undefined`: no rule applies, the normal handler answers. A promise: `{ answer }` answers with
   * that result; `undefined` goes on to the normal handler (after a delay); a rejection with a
   * RequestError answers that error. `implemented`: whether we have a handler for the method.
   */
  intercept(method: string, params: unknown, request: { requestId: JsonRpcId; signal: AbortSignal; implemented: boolean }): Promise<{ answer: unknown } | undefined> | undefined;
}

/** What the handlers need from the connection (an interface, so this module does not import it back). */
export interface ClientHandlerHost {
  readonly switches: ClientCapabilitySwitches;
  readonly faults?: ClientRequestInterceptor | undefined;
  readonly fs: FsAccess;
  readonly terminals: TerminalManager;
  readonly trace: { flushSoon(): void };
  receiverForAgentSession(agentSessionId: string): SessionHandlers | undefined;
}

function refuseUnadvertised(method: string): RequestError {
  const error = sdk().RequestError.methodNotFound(method);
  error.message = `${method} is not available: this client did not advertise that capability in initialize`;
  return error;
}

type Ctx<P> = { params: P; requestId: JsonRpcId; signal: AbortSignal; method?: string };

/** The request id, and the session that approves a sensitive file (the fs handler asks only when one is touched). */
function fsContext(conn: ClientHandlerHost, agentSessionId: string, requestId: JsonRpcId, signal: AbortSignal): FsRequestContext {
  return {
    requestId,
    approveSensitive: (access) => {
      const receiver = conn.receiverForAgentSession(agentSessionId);
      if (!receiver?.approveSensitiveFile) return Promise.resolve({ allowed: false, decidedBy: 'sensitive-path', refusal: 'no-person' });
      conn.trace.flushSoon();
      return receiver.approveSensitiveFile(access, signal, requestId);
    },
  };
}

export function installClientHandlers(app: ClientApp, conn: ClientHandlerHost): void {
  const guard = (method: string) => {
    if (!clientMethodAllowed(method, conn.switches)) throw refuseUnadvertised(method);
  };
  /** The capability check, then the QA rules, then the handler. */
  const handle =
    <P, R>(method: string, handler: (ctx: Ctx<P>) => R | Promise<R>, implemented = true) =>
    (ctx: Ctx<P>): R | Promise<R> => {
      if (implemented) guard(method);
      const held = conn.faults?.intercept(ctx.method ?? method, ctx.params, { requestId: ctx.requestId, signal: ctx.signal, implemented });
      if (!held) return handler(ctx);
      return held.then((r) => (r ? (r.answer as R) : handler(ctx)));
    };

  app
    .onRequest(
      'session/request_permission',
      handle('session/request_permission', async ({ params, signal, requestId }: Ctx<RequestPermissionRequest>) => {
        conn.trace.flushSoon();
        const receiver = conn.receiverForAgentSession(params.sessionId);
        if (!receiver) {
          throw requestError(-32002, `No session "${params.sessionId}" on this connection`, { sessionId: params.sessionId });
        }
        return receiver.requestPermission(params, signal, requestId);
      }),
    )
    .onRequest(
      'fs/read_text_file',
      handle('fs/read_text_file', ({ params, requestId, signal }: Ctx<ReadTextFileRequest>) => conn.fs.readTextFile(params, fsContext(conn, params.sessionId, requestId, signal))),
    )
    .onRequest(
      'fs/write_text_file',
      handle('fs/write_text_file', ({ params, requestId, signal }: Ctx<WriteTextFileRequest>) => conn.fs.writeTextFile(params, fsContext(conn, params.sessionId, requestId, signal))),
    )
    .onRequest(
      'terminal/create',
      handle('terminal/create', ({ params }: Ctx<CreateTerminalRequest>) => conn.terminals.create(params)),
    )
    .onRequest(
      'terminal/output',
      handle('terminal/output', ({ params }: Ctx<TerminalOutputRequest>) => conn.terminals.output(params)),
    )
    .onRequest(
      'terminal/wait_for_exit',
      handle('terminal/wait_for_exit', ({ params, signal }: Ctx<WaitForTerminalExitRequest>) => conn.terminals.waitForExit(params, signal)),
    )
    .onRequest(
      'terminal/kill',
      handle('terminal/kill', ({ params }: Ctx<KillTerminalRequest>) => conn.terminals.kill(params)),
    )
    .onRequest(
      'terminal/release',
      handle('terminal/release', ({ params }: Ctx<ReleaseTerminalRequest>) => conn.terminals.release(params)),
    )
    .onRequest(
      'elicitation/create',
      handle('elicitation/create', ({ params, signal, requestId }: Ctx<CreateElicitationRequest>) => {
        const mode = (params as { mode?: unknown }).mode;
        const advertised = (mode === 'form' && conn.switches.elicitationForm) || (mode === 'url' && conn.switches.elicitationUrl);
        if (!advertised) throw sdk().RequestError.invalidParams({ mode }, `elicitation mode "${String(mode)}" is not supported by this client`);
        const sessionId = (params as { sessionId?: unknown }).sessionId;
        const receiver = typeof sessionId === 'string' ? conn.receiverForAgentSession(sessionId) : undefined;
        if (!receiver?.requestElicitation) {
          throw sdk().RequestError.invalidParams({ sessionId }, 'elicitation needs the sessionId of an open session on this connection');
        }
        conn.trace.flushSoon();
        return receiver.requestElicitation(params, signal, requestId);
      }),
    )
    .onRequest(
      '*',
      handle(
        '*',
        ({ method }: Ctx<unknown>) => {
          throw sdk().RequestError.methodNotFound(method ?? '');
        },
        false,
      ),
    )
    // Unknown and extension notifications are in the trace already; nothing to do.
    .onNotification('*', () => undefined);
}
