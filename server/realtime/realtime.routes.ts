import type { FastifyPluginAsync } from 'fastify';
import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelAuthRequestSchema, channelAuthResponseSchema } from '../../src/schemas/notification';
import type { AppDeps } from '../context';
import { ANY_ACCOUNT, requireAuth } from '../auth/guard';
import { HttpError, MESSAGES } from '../errors';
import { ConnectionCaps } from './connection-caps';
import type { ChannelHub } from './hub';
import { PUSHER_ERRORS, refuse, servePusherConnection } from './pusher-protocol';
import { authorizeChannel, handleTrigger } from './realtime.service';

/**
 * The built-in Pusher Channels service (docs/architecture.md): the WebSocket at
 * /app/:key, POST /broadcasting/auth for private channels and the trigger API
 * POST /apps/:appId/events (+ /batch_events) the `pusher` package calls.
 */

/** Largest WebSocket frame accepted from a client, in bytes. */
export const MAX_FRAME_BYTES = 16 * 1024;
/** Largest trigger-API body, in bytes. */
export const MAX_TRIGGER_BODY_BYTES = 256 * 1024;
/** Spanish messages of the realtime routes. */
export const TRIGGER_MESSAGES = {
  unknownApp: 'Aplicación desconocida',
  badSignature: 'Firma no válida',
  upgradeRequired: 'Esta dirección solo acepta conexiones WebSocket',
} as const;

/**
 * The trigger API, in its own plugin so that its JSON bodies stay raw text (the signature covers
 * the body's MD5).
 */
function triggerApi(deps: AppDeps, hub: ChannelHub): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MAX_TRIGGER_BODY_BYTES }, (_request, body, done) => {
      done(null, body);
    });
    for (const batch of [false, true]) {
      app.post<{ Params: { appId: string }; Querystring: Record<string, string | string[] | undefined> }>(
        `/apps/:appId/${batch ? 'batch_events' : 'events'}`,
        { config: { access: 'public' } },
        async (request) => {
          const outcome = handleTrigger(
            deps.config.pusher,
            hub,
            {
              appId: request.params.appId,
              batch,
              method: request.method,
              path: request.url.split('?')[0] ?? '',
              query: request.query,
              body: typeof request.body === 'string' ? request.body : '',
            },
            Date.now(),
          );
          switch (outcome.status) {
            case 200:
              return {};
            case 404:
              throw new HttpError(404, TRIGGER_MESSAGES.unknownApp);
            case 401:
              request.log.warn({ reason: outcome.reason }, 'Trigger API request refused');
              throw new HttpError(401, TRIGGER_MESSAGES.badSignature);
            case 400:
              throw new HttpError(400, MESSAGES.badRequest);
          }
        },
      );
    }
  };
}

/** Registers the realtime routes; `hub` holds this process's connections. */
export function realtimeRoutes(deps: AppDeps, hub: ChannelHub): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
    const { maxConnections, maxConnectionsPerIp, unauthenticatedTimeoutMs } = deps.config.realtime;
    const caps = new ConnectionCaps(maxConnections, maxConnectionsPerIp);

    // WebSocket upgrade → Pusher protocol; a plain HTTP GET → 426 (JSON, like every error).
    app.route<{ Params: { key: string }; Querystring: { protocol?: string } }>({
      method: 'GET',
      url: '/app/:key',
      config: { access: 'public' },
      handler: async (_request, reply) => {
        void reply.header('upgrade', 'websocket');
        throw new HttpError(426, TRIGGER_MESSAGES.upgradeRequired);
      },
      // Per-address and global caps (REALTIME_MAX_CONNECTIONS[_PER_IP]): beyond them the socket
      // gets Pusher's 4100 "Over capacity" and is closed; pusher-js retries after a back-off.
      wsHandler: (socket, request) => {
        const place = caps.acquire(request.ip);
        if ('refused' in place) {
          request.log.warn({ ip: request.ip, cap: place.refused }, 'Realtime connection refused: over capacity');
          refuse(socket, PUSHER_ERRORS.overCapacity);
          return;
        }
        socket.once('close', place.release);
        servePusherConnection(
          socket,
          { key: request.params.key, protocol: request.query.protocol },
          {
            key: deps.config.pusher.key,
            secret: deps.config.pusher.secret,
            hub,
            log: request.log,
            unauthenticatedTimeoutMs,
          },
        );
      },
    });

    // Form (pusher-js) or JSON body {socket_id, channel_name}; bearer of staff or customer.
    app.post(
      '/broadcasting/auth',
      {
        config: { access: ANY_ACCOUNT },
        schema: { body: channelAuthRequestSchema, response: { 200: channelAuthResponseSchema } },
      },
      async (request) => authorizeChannel(deps.config.pusher, requireAuth(request), request.body),
    );

    await app.register(triggerApi(deps, hub));
  };
}
