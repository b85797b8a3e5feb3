/**
 * The requests an agent sends us (acp-reference §5.2), wired into the SDK's client app: permission
 * requests go to the session they belong to; fs and terminal requests to the confined handlers —
 * but only when we advertised the capability (QA can switch each off); anything else is answered
 * -32601, as the spec asks for unknown and `_`-prefixed methods.
 */
import {
  RequestError,
  type ClientApp,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk/unstable';
import { clientMethodAllowed, type ClientCapabilitySwitches } from './client-capabilities';
import type { FsAccess } from './fs-access';
import type { TerminalManager } from './terminals';

export interface SessionHandlers {
  /** Decide a permission request (policy, remembered answers, or the user); `signal` aborts on `$/cancel_request`. */
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal, requestId?: string | number | null): Promise<RequestPermissionResponse>;
  /** Ask the user for structured input (absent where no UI can show a form). */
  requestElicitation?(params: CreateElicitationRequest, signal: AbortSignal, requestId?: string | number | null): Promise<CreateElicitationResponse>;
}

/** What the handlers need from the connection (an interface, so this module does not import it back). */
export interface ClientHandlerHost {
  readonly switches: ClientCapabilitySwitches;
  readonly fs: FsAccess;
  readonly terminals: TerminalManager;
  readonly trace: { flushSoon(): void };
  receiverForAgentSession(agentSessionId: string): SessionHandlers | undefined;
}

function refuseUnadvertised(method: string): RequestError {
  const error = RequestError.methodNotFound(method);
  error.message = `${method} is not available: this client did not advertise that capability in initialize`;
  return error;
}

export function installClientHandlers(app: ClientApp, conn: ClientHandlerHost): void {
  const guard = (method: string) => {
    if (!clientMethodAllowed(method, conn.switches)) throw refuseUnadvertised(method);
  };

  app
    .onRequest('session/request_permission', async ({ params, signal, requestId }) => {
      conn.trace.flushSoon();
      const receiver = conn.receiverForAgentSession(params.sessionId);
      if (!receiver) {
        throw new RequestError(-32002, `No session "${params.sessionId}" on this connection`, { sessionId: params.sessionId });
      }
      return receiver.requestPermission(params, signal, requestId);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      guard('fs/read_text_file');
      return conn.fs.readTextFile(params);
    })
    .onRequest('fs/write_text_file', async ({ params, requestId }) => {
      guard('fs/write_text_file');
      return conn.fs.writeTextFile(params, { requestId });
    })
    .onRequest('terminal/create', ({ params }) => {
      guard('terminal/create');
      return conn.terminals.create(params);
    })
    .onRequest('terminal/output', ({ params }) => {
      guard('terminal/output');
      return conn.terminals.output(params);
    })
    .onRequest('terminal/wait_for_exit', ({ params, signal }) => {
      guard('terminal/wait_for_exit');
      return conn.terminals.waitForExit(params, signal);
    })
    .onRequest('terminal/kill', ({ params }) => {
      guard('terminal/kill');
      return conn.terminals.kill(params);
    })
    .onRequest('terminal/release', ({ params }) => {
      guard('terminal/release');
      return conn.terminals.release(params);
    })
    .onRequest('elicitation/create', ({ params, signal, requestId }) => {
      guard('elicitation/create');
      const mode = (params as { mode?: unknown }).mode;
      const advertised = (mode === 'form' && conn.switches.elicitationForm) || (mode === 'url' && conn.switches.elicitationUrl);
      if (!advertised) throw RequestError.invalidParams({ mode }, `elicitation mode "${String(mode)}" is not supported by this client`);
      const sessionId = (params as { sessionId?: unknown }).sessionId;
      const receiver = typeof sessionId === 'string' ? conn.receiverForAgentSession(sessionId) : undefined;
      if (!receiver?.requestElicitation) {
        throw RequestError.invalidParams({ sessionId }, 'elicitation needs the sessionId of an open session on this connection');
      }
      conn.trace.flushSoon();
      return receiver.requestElicitation(params, signal, requestId);
    })
    .onRequest('*', ({ method }) => {
      throw RequestError.methodNotFound(method);
    })
    // Unknown and extension notifications are in the trace already; nothing to do.
    .onNotification('*', () => undefined);
}
