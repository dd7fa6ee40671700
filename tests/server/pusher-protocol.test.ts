import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { ChannelHub, MAX_CHANNELS_PER_CONNECTION } from '../../server/realtime/hub';
import { servePusherConnection } from '../../server/realtime/pusher-protocol';
import { triggerStringToSign } from '../../server/realtime/signatures';

/** server/realtime: keep-alive of the Pusher protocol, the hub's limits, the signed string. */

/** A stand-in for a ws socket: records frames and the close code. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly frames: { event: string; channel?: string; data?: unknown }[] = [];
  closed: number | null = null;
  send(frame: string) {
    this.frames.push(JSON.parse(frame));
  }
  close(code: number) {
    this.closed = code;
    this.readyState = 3;
    this.emit('close', code);
  }
  receive(message: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

const log = { info: () => undefined, debug: () => undefined } as never;

describe('Pusher keep-alive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pings after the activity timeout and closes with 4201 when nothing answers', () => {
    const hub = new ChannelHub();
    const socket = new FakeSocket();
    servePusherConnection(
      socket as unknown as WebSocket,
      { key: 'k', protocol: '7' },
      { key: 'k', secret: 's', hub, log, activityTimeoutSeconds: 120, pongTimeoutMs: 30_000 },
    );
    expect(hub.size).toBe(1);

    vi.advanceTimersByTime(119_000);
    socket.receive({ event: 'pusher:ping', data: {} }); // activity resets the timer
    vi.advanceTimersByTime(119_000);
    expect(socket.frames.map((f) => f.event)).toEqual(['pusher:connection_established', 'pusher:pong']);

    vi.advanceTimersByTime(1_000);
    expect(socket.frames.at(-1)).toEqual({ event: 'pusher:ping', data: {} });
    socket.receive({ event: 'pusher:pong', data: {} });
    vi.advanceTimersByTime(120_000 + 29_000);
    expect(socket.closed).toBeNull();

    vi.advanceTimersByTime(1_000);
    expect(socket.frames.at(-1)).toEqual({ event: 'pusher:error', data: { code: 4201, message: 'Pong reply not received' } });
    expect(socket.closed).toBe(4201);
    expect(hub.size).toBe(0);
  });
});

describe('ChannelHub', () => {
  it('limits the channels of one connection and forgets everything on remove', () => {
    const hub = new ChannelHub();
    const sent: string[] = [];
    hub.add({ socketId: '1.1', send: (frame) => sent.push(frame) });
    for (let i = 0; i < MAX_CHANNELS_PER_CONNECTION; i += 1) expect(hub.subscribe('1.1', `c${i}`)).toBe(true);
    expect(hub.subscribe('1.1', 'one-too-many')).toBe(false);
    expect(hub.subscribe('1.1', 'c0')).toBe(true);
    expect(hub.deliver({ event: 'e', channel: 'c1', data: '{}' })).toBe(1);
    expect(hub.deliver({ event: 'e', channel: 'c1', data: '{}' }, '1.1')).toBe(0);
    hub.remove('1.1');
    expect(hub.deliver({ event: 'e', channel: 'c1', data: '{}' })).toBe(0);
    expect(hub.channelsOf('1.1')).toEqual([]);
    expect(sent).toHaveLength(1);
  });
});

describe('triggerStringToSign', () => {
  it('sorts the lower-cased parameters and leaves out auth_signature', () => {
    expect(
      triggerStringToSign({
        method: 'post',
        path: '/apps/1/events',
        query: { auth_version: '1.0', Auth_Key: 'k', auth_signature: 'x', body_md5: 'm', auth_timestamp: '5' },
      }),
    ).toBe('POST\n/apps/1/events\nauth_key=k&auth_timestamp=5&auth_version=1.0&body_md5=m');
  });
});
