import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../context';
import { DEV_BASE } from './bases';
import { listOutbox } from './outbox.repository';

/** How many messages GET /dev/outbox returns at most. */
export const OUTBOX_PAGE_SIZE = 100;

/** GET /dev/outbox response: the latest e-mails, newest first. */
export const outboxResponseSchema = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      recipient: z.string(),
      subject: z.string(),
      body: z.string(),
      link: z.string().nullable(),
      created_at: z.string(),
      /** Delivery state (server/platform/outbox-delivery.ts): PENDING, SENT or FAILED. */
      status: z.enum(['PENDING', 'SENT', 'FAILED']),
      attempts: z.number().int(),
      last_error: z.string().nullable(),
    }),
  ),
});

/**
 * GET /dev/outbox: the e-mails the server queued (reset links) with their delivery state, for
 * developers, tests and e2e (outside production only; a sent message no longer holds its link).
 * `app.ts` registers it only when NODE_ENV is not production.
 */
export function devOutboxRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(`${DEV_BASE}/outbox`, { config: { access: 'public' }, schema: { response: { 200: outboxResponseSchema } } }, async () => {
      // E-mails queued by requests that already answered (reset requests) are in before the list is read.
      await deps.background.settled();
      return { data: await listOutbox(deps.db, OUTBOX_PAGE_SIZE) };
    });
  };
}
