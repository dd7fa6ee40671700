import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activeLocalsResponseSchema } from '../../../src/schemas/session';
import type { AppDeps } from '../../context';
import { PRIVATE_BASE } from '../bases';
import { listActiveLocals } from './locals.repository';

/** SPEC §7 row 9: GET /api/private/ver_locales_activos, no auth → `{message: [{id, name, address}]}`. */
export function localsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${PRIVATE_BASE}/ver_locales_activos`,
      { config: { access: 'public' }, schema: { response: { 200: activeLocalsResponseSchema } } },
      async () => ({ message: await listActiveLocals(deps.db) }),
    );
  };
}
