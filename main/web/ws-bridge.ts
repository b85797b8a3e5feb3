import type { WebSocket } from 'ws';
import type { CoreApi } from '../core/api/core-api';
import { parseClientFrame, type ServerFrame } from '../../common/api/wire';
import { toApiErrorShape } from '../../common/api/errors';

/**
 * Carries the API contract over one WebSocket: request frames in, result/error frames and events
 * out. The connection is a UI like an Electron window: it receives every event until it closes.
 */
export function bridgeSocket(socket: WebSocket, core: CoreApi): void {
  const send = (frame: ServerFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const connection = core.connect((name, payload) => send({ t: 'evt', name, payload }));

  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const frame = parseClientFrame(data.toString());
    if (!frame) {
      socket.close(1003, 'Malformed frame');
      return;
    }
    core.handle(frame.name, frame.params).then(
      (result) => send({ t: 'res', id: frame.id, ok: true, result }),
      (err: unknown) => send({ t: 'res', id: frame.id, ok: false, error: toApiErrorShape(err) }),
    );
  });
  socket.on('close', () => connection.dispose());
  socket.on('error', () => connection.dispose());
}
