import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DASHBOARD_CARD_PERMISSIONS, type DashboardCardId } from '../../../src/schemas/inicio/dashboard';
import type { Permission } from '../../../src/schemas/permissions';
import { requireAuth, staffWith } from '../../auth/guard';
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

/** A card takes no query: any parameter is a 422 "Campo no permitido" on that key. */
const cardQuerySchema = z.strictObject({});

/*
 * The answers as the server writes them. The web app's schemas (src/schemas/inicio/dashboard.ts)
 * are tolerant — lists that drop a bad row through a transform — and a transform cannot be
 * encoded by the response serializer (server/serializer.ts), so the wire shapes are pinned here,
 * field for field the same (céntimos integers, ISO dates and instants).
 */
const currency = z.enum(['PEN', 'USD']);
const money = z.object({ currency, amount: z.number().int() });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const data = <T extends z.ZodType>(card: T) => z.object({ data: card });
const paymentsReviewWire = data(
  z.object({
    count: z.number().int(),
    by_currency: z.array(money),
    oldest: z.array(
      z.object({
        id: z.number().int(),
        customer_name: z.string(),
        reference: z.string(),
        method: z.string(),
        currency,
        amount: z.number().int(),
        created_at: z.string(),
      }),
    ),
  }),
);
const expiringReservationsWire = data(
  z.object({
    count: z.number().int(),
    reservations: z.array(
      z.object({
        id: z.number().int(),
        lot_code: z.string(),
        subdivision_name: z.string(),
        customer_name: z.string(),
        agent_name: z.string(),
        expires_at: z.string(),
      }),
    ),
  }),
);
const followUpsWire = data(
  z.object({
    count: z.number().int(),
    leads: z.array(z.object({ id: z.number().int(), name: z.string(), phone: z.string().nullable(), next_follow_up_at: z.string() })),
  }),
);
const commissionsWire = data(
  z.object({ by_currency: z.array(z.object({ currency, earned: z.number().int(), to_pay: z.number().int() })) }),
);
const dueSoonWire = data(z.object({ from: day, to: day, count: z.number().int(), by_currency: z.array(money) }));
const lateCustomersWire = data(
  z.object({
    customers: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        phone: z.string().nullable(),
        days_late: z.number().int(),
        by_currency: z.array(money),
        whatsapp_url: z.string().nullable(),
      }),
    ),
  }),
);

/** The guard's access of a card: staff holding every permission of DASHBOARD_CARD_PERMISSIONS (customers 403). */
export const dashboardCardAccess = (card: DashboardCardId) => ({
  access: staffWith(...(DASHBOARD_CARD_PERMISSIONS[card] as readonly Permission[])),
});

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
      { config: dashboardCardAccess('payments-review'), schema: { querystring: cardQuerySchema, response: { 200: paymentsReviewWire } } },
      async () => ({ data: await paymentsReviewCard(deps.db) }),
    );
    app.get(
      `${base}/expiring-reservations`,
      {
        config: dashboardCardAccess('expiring-reservations'),
        schema: { querystring: cardQuerySchema, response: { 200: expiringReservationsWire } },
      },
      async () => ({ data: await expiringReservationsCard(deps) }),
    );
    app.get(
      `${base}/follow-ups`,
      { config: dashboardCardAccess('follow-ups'), schema: { querystring: cardQuerySchema, response: { 200: followUpsWire } } },
      async (request) => ({ data: await followUpsCard(deps, requireAuth(request).accountId) }),
    );
    app.get(
      `${base}/commissions`,
      { config: dashboardCardAccess('commissions'), schema: { querystring: cardQuerySchema, response: { 200: commissionsWire } } },
      async (request) => ({ data: await commissionsCard(deps.db, requireAuth(request).accountId) }),
    );
    app.get(
      `${base}/due-soon`,
      { config: dashboardCardAccess('due-soon'), schema: { querystring: cardQuerySchema, response: { 200: dueSoonWire } } },
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
      { config: dashboardCardAccess('late-customers'), schema: { querystring: cardQuerySchema, response: { 200: lateCustomersWire } } },
      async () => ({ data: await lateCustomersCard(deps) }),
    );
  };
}
