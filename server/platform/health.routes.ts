import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../context';
import { MAIN_BASE } from './bases';

/** GET /api/health response. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });

/** GET /api/health: `{status: 'ok'}` once the database answers (a failing database is a 500). */
export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(`${MAIN_BASE}/health`, { config: { access: 'public' }, schema: { response: { 200: healthResponseSchema } } }, async () => {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok' as const };
    });
  };
}
