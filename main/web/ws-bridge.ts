import type { WebSocket } from 'ws';
import type { CoreApi } from '../core/api/core-api';
import { EventCoalescer } from '../core/api/event-coalescer';
import { parseClientFrame, type ServerFrame } from '../../common/api/wire';
import { toApiErrorShape } from '../../common/api/errors';

/**
 * Carries the API contract over one WebSocket: request frames in, result/error frames and events
 * out. The connection is a UI like an Electron window: it receives every event until it closes.
 * Events are coalesced into at most one `evts` frame per frame interval, and the next waits for the
 * window's `ack` of the last; an answer first flushes the events emitted before it, so the window
 * sees them in the order the core produced them.
 */
export function bridgeSocket(socket: WebSocket, core: CoreApi): void {
  const send = (frame: ServerFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  // Each delivery takes the sessions' pending patches along (`collect`): one wait, not two.
  const events = new EventCoalescer({ acknowledged: true, collect: () => core.release(), deliver: (items, n) => send({ t: 'evts', n, items }) });
  const connection = core.connect((name, payload) => events.push(name, payload));
  const answer = (frame: ServerFrame): void => {
    events.flush();
    send(frame);
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const frame = parseClientFrame(data.toString());
    if (!frame) {
      socket.close(1003, 'Malformed frame');
      return;
    }
    if (frame.t === 'ack') {
      events.acknowledge(frame.n);
      return;
    }
    core.handle(frame.name, frame.params).then(
      (result) => answer({ t: 'res', id: frame.id, ok: true, result }),
      (err: unknown) => answer({ t: 'res', id: frame.id, ok: false, error: toApiErrorShape(err) }),
    );
  });
  const close = (): void => {
    connection.dispose();
    events.dispose();
  };
  socket.on('close', close);
  socket.on('error', close);
}
