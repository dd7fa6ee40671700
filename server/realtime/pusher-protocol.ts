import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { ChannelHub } from './hub';
import { verifyChannelAuth } from './signatures';

/**
 * Server side of the Pusher Channels WebSocket protocol, version 7 (Pusher "Pusher Channels
 * Protocol"), as pusher-js 8 and laravel-echo speak it: connection handshake, public and private
 * channel subscriptions, ping/pong and protocol errors. Presence, encrypted channels and client
 * events are not offered (docs/decisions.md "Notifications and realtime").
 */

/** Seconds of silence after which the server pings (sent to the client in the handshake). */
export const ACTIVITY_TIMEOUT_SECONDS = 120;
/** Milliseconds the server waits for any message after its ping before closing with 4201. */
export const PONG_TIMEOUT_MS = 30_000;
/** Protocol versions understood (pusher-js 8 sends 7). */
export const SUPPORTED_PROTOCOLS = ['5', '6', '7'];
/** Valid channel name (Pusher: letters, digits and _ - = @ , . ; — at most 164 characters). */
export const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;

/** `pusher:error` codes used here (Pusher protocol error code ranges 4000–4399). */
export const PUSHER_ERRORS = {
  appDoesNotExist: { code: 4001, message: 'Application does not exist' },
  unsupportedProtocol: { code: 4007, message: 'Unsupported protocol version' },
  noProtocol: { code: 4008, message: 'No protocol version supplied' },
  unauthorized: { code: 4009, message: 'Connection is unauthorized' },
  /** No private channel authorised within the unauthenticated-socket timeout (issue 11 item 5). */
  unauthenticatedTimeout: { code: 4009, message: 'Connection is unauthorized: no private channel subscribed in time' },
  /** Per-address or global connection cap reached; clients retry after a back-off (4100–4199). */
  overCapacity: { code: 4100, message: 'Over capacity' },
  pongNotReceived: { code: 4201, message: 'Pong reply not received' },
} as const;

/** Milliseconds a refused socket is given to answer the close handshake before it is destroyed. */
export const CLOSE_GRACE_MS = 1_000;

/** A protocol error: a close code of the 4000–4399 ranges, or null for errors that keep the connection. */
export interface PusherError {
  code: number | null;
  message: string;
}

/** What a connection needs: the app credentials, the hub, a logger and the timeouts. */
export interface PusherConnectionOptions {
  key: string;
  secret: string;
  hub: ChannelHub;
  log: FastifyBaseLogger;
  activityTimeoutSeconds?: number;
  pongTimeoutMs?: number;
  /**
   * A connection that has not subscribed to a private channel (with a valid `auth`) this many ms
   * after connecting is closed with 4009; undefined or 0 = never (issue 11 item 5).
   */
  unauthenticatedTimeoutMs?: number;
}

/** A fresh socket id, '<digits>.<digits>', unique within the hub. */
export function newSocketId(hub: ChannelHub): string {
  for (;;) {
    const id = `${randomInt(1, 2 ** 31 - 1)}.${randomInt(1, 2 ** 31 - 1)}`;
    if (!hub.has(id)) return id;
  }
}

function send(socket: WebSocket, message: { event: string; channel?: string; data?: unknown }): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

function sendError(socket: WebSocket, error: PusherError): void {
  send(socket, { event: 'pusher:error', data: { code: error.code, message: error.message } });
}

/**
 * Sends a fatal `pusher:error` and closes the socket with the same code (pusher-js acts on the
 * close code: 4000–4099 stop, 4100–4199 retry after a back-off, 4200–4299 retry at once). A peer
 * that does not answer the close handshake within {@link CLOSE_GRACE_MS} is cut off, so a refused
 * socket does not hold a file descriptor for ws's own 30 s close timeout.
 */
export function refuse(socket: WebSocket, error: PusherError & { code: number }): void {
  sendError(socket, error);
  socket.close(error.code, error.message);
  setTimeout(() => {
    if (socket.readyState !== socket.CLOSED) socket.terminate();
  }, CLOSE_GRACE_MS).unref();
}

/** `data` of a client message: an object, or a JSON string of one. */
function messageData(data: unknown): Record<string, unknown> {
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return {};
    }
  }
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/**
 * Serves one WebSocket connection to /app/:key. Refuses (pusher:error + close) an unknown app key
 * (4001), a missing (4008) or unsupported (4007) protocol version; otherwise registers the
 * connection in the hub and sends `pusher:connection_established` with
 * `{"socket_id","activity_timeout"}` JSON-encoded as a string. Then:
 * - `pusher:subscribe {channel, auth?}`: public channels at once; `private-` channels when `auth`
 *   is `key:HMAC-SHA256(secret, socket_id:channel)`; presence/encrypted channels and bad auth →
 *   `pusher:error` 4009 (the connection stays open); success → `pusher_internal:subscription_succeeded`;
 * - `pusher:unsubscribe {channel}`; `pusher:ping` → `pusher:pong`;
 * - `client-*` events → `pusher:error` (not enabled); invalid JSON → `pusher:error` (code null).
 * After {@link ACTIVITY_TIMEOUT_SECONDS} of silence the server pings; without a reply within
 * {@link PONG_TIMEOUT_MS} it closes with 4201. A connection still without a private channel
 * `unauthenticatedTimeoutMs` after connecting is closed with 4009 (only signed subscriptions count:
 * public channels carry nothing here).
 */
export function servePusherConnection(
  socket: WebSocket,
  params: { key: string; protocol: string | undefined },
  options: PusherConnectionOptions,
): void {
  const { hub, log } = options;
  if (params.key !== options.key) return refuse(socket, PUSHER_ERRORS.appDoesNotExist);
  if (params.protocol === undefined || params.protocol === '') return refuse(socket, PUSHER_ERRORS.noProtocol);
  if (!SUPPORTED_PROTOCOLS.includes(params.protocol)) return refuse(socket, PUSHER_ERRORS.unsupportedProtocol);

  const activityMs = (options.activityTimeoutSeconds ?? ACTIVITY_TIMEOUT_SECONDS) * 1000;
  const pongMs = options.pongTimeoutMs ?? PONG_TIMEOUT_MS;
  const socketId = newSocketId(hub);
  hub.add({ socketId, send: (frame) => socket.send(frame) });

  let pingTimer: NodeJS.Timeout | undefined;
  let pongTimer: NodeJS.Timeout | undefined;
  let authTimer: NodeJS.Timeout | undefined;
  if (options.unauthenticatedTimeoutMs) {
    authTimer = setTimeout(() => refuse(socket, PUSHER_ERRORS.unauthenticatedTimeout), options.unauthenticatedTimeoutMs);
    authTimer.unref();
  }
  const stopTimers = () => {
    clearTimeout(pingTimer);
    clearTimeout(pongTimer);
  };
  const touch = () => {
    stopTimers();
    pingTimer = setTimeout(() => {
      send(socket, { event: 'pusher:ping', data: {} });
      pongTimer = setTimeout(() => refuse(socket, PUSHER_ERRORS.pongNotReceived), pongMs);
      pongTimer.unref();
    }, activityMs);
    pingTimer.unref();
  };

  const subscribe = (data: Record<string, unknown>) => {
    const channel = data.channel;
    if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel)) {
      sendError(socket, { code: null, message: 'Invalid channel name' });
      return;
    }
    if (channel.startsWith('presence-') || channel.startsWith('private-encrypted-')) {
      sendError(socket, PUSHER_ERRORS.unauthorized);
      return;
    }
    if (channel.startsWith('private-') && !verifyChannelAuth(options.key, options.secret, socketId, channel, data.auth)) {
      log.info({ socketId, channel }, 'Realtime subscription refused: invalid auth');
      sendError(socket, PUSHER_ERRORS.unauthorized);
      return;
    }
    if (!hub.subscribe(socketId, channel)) {
      sendError(socket, { code: null, message: 'Too many channels' });
      return;
    }
    if (channel.startsWith('private-')) clearTimeout(authTimer);
    send(socket, { event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });
  };

  const onMessage = (raw: RawData, isBinary: boolean) => {
    touch();
    let message: unknown;
    try {
      message = isBinary ? undefined : JSON.parse(raw.toString());
    } catch {
      message = undefined;
    }
    const event = (message as { event?: unknown } | null | undefined)?.event;
    if (typeof event !== 'string') {
      sendError(socket, { code: null, message: 'Invalid message' });
      return;
    }
    const data = messageData((message as { data?: unknown }).data);
    switch (event) {
      case 'pusher:ping':
        send(socket, { event: 'pusher:pong', data: {} });
        break;
      case 'pusher:pong':
        break;
      case 'pusher:subscribe':
        subscribe(data);
        break;
      case 'pusher:unsubscribe':
        if (typeof data.channel === 'string') hub.unsubscribe(socketId, data.channel);
        break;
      default:
        if (event.startsWith('client-')) sendError(socket, { code: null, message: 'Client events are not enabled' });
    }
  };

  socket.on('message', onMessage);
  socket.on('close', () => {
    stopTimers();
    clearTimeout(authTimer);
    hub.remove(socketId);
  });
  socket.on('error', (error) => log.debug({ err: error, socketId }, 'Realtime socket error'));

  send(socket, {
    event: 'pusher:connection_established',
    data: JSON.stringify({ socket_id: socketId, activity_timeout: activityMs / 1000 }),
  });
  touch();
}
