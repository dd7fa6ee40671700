import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commissionsCardResponseSchema,
  dueSoonCardResponseSchema,
  expiringReservationsCardResponseSchema,
  followUpsCardResponseSchema,
  lateCustomersCardResponseSchema,
  paymentsReviewCardResponseSchema,
} from '../../../src/schemas/inicio/dashboard';
import { requireAuth } from '../../auth/guard';
import { dashboardCardAccess, dashboardCardQuerySchema } from './dashboard-access';
import type { AppDeps } from '../../context';
import { MAIN_BASE } from '../../platform/bases';
import { createKeptPages } from '../../platform/revision-texts';
import { todayInLimaBy } from '../../clock';
import { instalmentsListRevision } from '../finanzas/instalments.service';
import {
  commissionsCard,
  dueSoonCard,
  expiringReservationsCard,
  followUpsCard,
  lateCustomersCard,
  paymentsReviewCard,
} from './dashboard-queues.service';

/**
 * Inicio's agent and collector cards (docs/dashboard.md "Agent and collector cards";
 * src/schemas/inicio/dashboard.ts): GET /api/dashboard/payments-review, /expiring-reservations,
 * /follow-ups, /commissions, /due-soon, /late-customers. Each answers `{ data: card }` to staff
 * holding the card's permissions (403 otherwise, 401 without a session); follow-ups and commissions
 * are the caller's own.
 */
export function dashboardQueuesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const base = `${MAIN_BASE}/dashboard`;
    // Due-soon is Registro de Cuotas' totals over 8 days (~12 000 rows on the large database):
    // kept per revision of the register and day, as the register keeps its own totals (migration
    // 0027; server/platform/revision-texts.ts), so only the first read after a write pays for it.
    const sendKept = createKeptPages({ keep: deps.config.keepAnswers });
    app.get(
      `${base}/payments-review`,
      {
        config: { access: dashboardCardAccess('payments-review') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: paymentsReviewCardResponseSchema } },
      },
      async () => ({ data: await paymentsReviewCard(deps.db) }),
    );
    app.get(
      `${base}/expiring-reservations`,
      {
        config: { access: dashboardCardAccess('expiring-reservations') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: expiringReservationsCardResponseSchema } },
      },
      async () => ({ data: await expiringReservationsCard(deps) }),
    );
    app.get(
      `${base}/follow-ups`,
      {
        config: { access: dashboardCardAccess('follow-ups') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: followUpsCardResponseSchema } },
      },
      async (request) => ({ data: await followUpsCard(deps, requireAuth(request).accountId) }),
    );
    app.get(
      `${base}/commissions`,
      {
        config: { access: dashboardCardAccess('commissions') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: commissionsCardResponseSchema } },
      },
      async (request) => ({ data: await commissionsCard(deps.db, requireAuth(request).accountId) }),
    );
    app.get(
      `${base}/due-soon`,
      {
        config: { access: dashboardCardAccess('due-soon') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: dueSoonCardResponseSchema } },
      },
      async (request, reply) =>
        sendKept(
          request,
          reply,
          { name: 'dashboard-due-soon', query: {}, revision: `${await instalmentsListRevision(deps.db)}:${todayInLimaBy(deps.clock)}` },
          async () => ({ data: await dueSoonCard(deps) }),
        ),
    );
    app.get(
      `${base}/late-customers`,
      {
        config: { access: dashboardCardAccess('late-customers') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: lateCustomersCardResponseSchema } },
      },
      async () => ({ data: await lateCustomersCard(deps, { keep: deps.config.keepAnswers }) }),
    );
  };
}
