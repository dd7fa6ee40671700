import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { realtimeCredentialsResponseSchema } from '../../src/schemas/session';
import type { AppDeps } from '../context';
import { ANY_ACCOUNT, requireAuth } from '../auth/guard';
import { MAIN_BASE } from '../platform/bases';
import { realtimeCredentials } from './realtime-credentials.service';

/** docs/product.md §7 row 3: GET /api/get_websocket_and_channels_credentials, bearer (staff or customer). */
export function realtimeCredentialsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/get_websocket_and_channels_credentials`,
      { config: { access: ANY_ACCOUNT }, schema: { response: { 200: realtimeCredentialsResponseSchema } } },
      async (request) => ({ data: realtimeCredentials(deps.config.pusher, requireAuth(request)) }),
    );
  };
}
