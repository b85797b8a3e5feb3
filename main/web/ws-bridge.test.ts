import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createCore } from '../core/core';
import { bridgeSocket } from './ws-bridge';

describe('bridgeSocket', () => {
  it("takes the core's held-back events (the sessions' pending patches) along with each message", async () => {
    const core = createCore({ host: 'test', paths: { dataDir: '/tmp/d', configDir: '/tmp/c' } });
    const order: string[] = [];
    vi.spyOn(core, 'release').mockImplementation(() => order.push('release'));
    const socket = Object.assign(new EventEmitter(), { OPEN: 1, readyState: 1, send: vi.fn((text: string) => order.push(`send ${JSON.parse(text).t}`)) });
    bridgeSocket(socket as never, core);
    core.emit('app/notice', { severity: 'info', title: 'hi' });
    await Promise.resolve();
    expect(order).toEqual(['release', 'send evts']);
    socket.emit('close');
    expect(core.connectionCount).toBe(0);
  });
});
