import { z } from 'zod';
import { dataResponseSchema } from '../paging';
import { DAYS_LATE_BUCKETS } from '../finanzas/instalments';

/**
 * Inicio, the staff dashboard (docs/dashboard.md): one card per call, each under the staff base
 * `GET /api/dashboard/{card}`, each answered only to a user holding the card's permissions
 * ({@link DASHBOARD_CARD_PERMISSIONS}) and scoped like the list it summarises (an agent whose
 * sales scope is "Solo sus ventas" sees their own sales, their own leads …).
 *
 * Shared rules (docs/dashboard.md "Rules"):
 * - Money is integer céntimos per currency (PEN, USD), never added across currencies: every money
 *   figure sits in a `by_currency` row; a currency with nothing to show is left out.
 * - "This month", "today", "the next 7 days" are Lima calendar dates; `as_of` is the Lima date the
 *   figures were computed for (yyyy-mm-dd).
 * - Each figure equals the total of the list its `link` opens (same filters, same exclusions):
 *   the server computes both through the same query.
 * - Response schemas are tolerant (unknown keys ignored, only what the screen needs required), and
 *   a bad row in a card's list drops that row only.
 */

const currencySchema = z.enum(['PEN', 'USD']);
export type DashboardCurrency = z.infer<typeof currencySchema>;

/** Lima date yyyy-mm-dd. */
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * A list whose unreadable items are dropped, so one bad row never hides the rest. A codec (not a
 * one-way transform) so the server can answer through the same schema: Fastify's serializer
 * encodes answers (`safeEncode`) and derives their JSON Schema from the output side (server/serializer.ts).
 */
function tolerantList<T extends z.ZodType>(item: T) {
  return z.codec(z.array(z.unknown()).catch([]), z.array(item), {
    // The readable rows, which the output side then parses.
    decode: (rows) => rows.filter((row) => item.safeParse(row).success) as z.input<T>[],
    encode: (rows) => rows as unknown[],
  });
}

/** Céntimos of one currency: `amount` ≥ 0 integer. */
const moneyRow = z.object({ currency: currencySchema, amount: z.number().int() });
export type DashboardMoney = z.infer<typeof moneyRow>;

// ---------------------------------------------------------------------------------------------
// Manager cards
// ---------------------------------------------------------------------------------------------

/**
 * GET /api/dashboard/sales — sales of a calendar month (Lima, by `sale_date`), ANULADA left out
 * (the rule of Reporte de Ventas, whose figures for the same month and filters are these).
 * `periods`: THIS_MONTH, LAST_MONTH, SAME_MONTH_LAST_YEAR, each with `from`/`to` (its first and
 * last day; THIS_MONTH ends today), `count` and per currency `amount` (Σ final price, céntimos),
 * `area_m2` (Σ lot area, m², 2 decimals) and `price_per_m2` (céntimos per m², Σ amount ÷ Σ area,
 * rounded half up; null when no area).
 * Link: /COMERCIO/reporteVentas?from=…&to=… (Reporte de Ventas of that period).
 * Permissions: Acceso módulo comercial + Acceso submódulo ventas.
 */
export const DASHBOARD_PERIODS = ['THIS_MONTH', 'LAST_MONTH', 'SAME_MONTH_LAST_YEAR'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DASHBOARD_PERIOD_LABELS: Record<DashboardPeriod, string> = {
  THIS_MONTH: 'Este mes',
  LAST_MONTH: 'Mes anterior',
  SAME_MONTH_LAST_YEAR: 'Mismo mes del año pasado',
};
export const salesCardSchema = z.object({
  as_of: dateText,
  periods: tolerantList(
    z.object({
      period: z.enum(DASHBOARD_PERIODS),
      from: dateText,
      to: dateText,
      count: z.number().int(),
      by_currency: tolerantList(
        moneyRow.extend({ area_m2: z.number().default(0), price_per_m2: z.number().int().nullable().default(null) }),
      ),
    }),
  ),
});
export type SalesCard = z.infer<typeof salesCardSchema>;
export const salesCardResponseSchema = dataResponseSchema(salesCardSchema);

/**
 * GET /api/dashboard/collections — this month's money in: `collected` (Σ approved payments whose
 * operation date falls in the month, céntimos; the Pagos list filtered status=APROBADO&from&to),
 * `expected` (Σ amount of the instalments due in the month, céntimos; Registro de Cuotas filtered
 * due_from&due_to), `collected_today` (approved payments of today's operation date). Per currency.
 * Links: /FINANZAS/Pagos?status=APROBADO&from=…&to=… and /FINANZAS/RegistroCuotas?due_from=…&due_to=….
 * Permissions: Acceso módulo finanzas + Acceso submódulo pagos.
 */
export const collectionsCardSchema = z.object({
  as_of: dateText,
  from: dateText,
  to: dateText,
  by_currency: tolerantList(
    z.object({
      currency: currencySchema,
      collected: z.number().int(),
      expected: z.number().int(),
      collected_today: z.number().int().default(0),
    }),
  ),
});
export type CollectionsCard = z.infer<typeof collectionsCardSchema>;
export const collectionsCardResponseSchema = dataResponseSchema(collectionsCardSchema);

/**
 * GET /api/dashboard/overdue — the portfolio by days late (docs/domain.md "Instalments, days late
 * and late fees": days late counted from the due date), one row per bucket AL_DIA, 1_30, 31_60,
 * 61_90, MAS_90 with `count` (instalments) and per currency `amount` (Σ outstanding, céntimos):
 * exactly the totals of Registro de Cuotas filtered days_late=<bucket>.
 * Link: /FINANZAS/RegistroCuotas?days_late=<bucket>.
 * Permissions: Acceso módulo finanzas + Acceso submódulo pagos.
 */
export const overdueCardSchema = z.object({
  as_of: dateText,
  buckets: tolerantList(z.object({ bucket: z.enum(DAYS_LATE_BUCKETS), count: z.number().int(), by_currency: tolerantList(moneyRow) })),
});
export type OverdueCard = z.infer<typeof overdueCardSchema>;
export const overdueCardResponseSchema = dataResponseSchema(overdueCardSchema);

/**
 * GET /api/dashboard/lots — lots by status per subdivision (active subdivisions, name order, at
 * most 20; `counts` maps a lot status code to its count, statuses with none left out).
 * Link: /PROYECTOS/Lotes/<name>/<id_encrypted>?status=<status> (`id_encrypted` given per row).
 * Permissions: Acceso módulo proyectos + Acceso submódulo lotizaciones.
 */
export const lotsCardSchema = z.object({
  subdivisions: tolerantList(
    z.object({
      id: z.number().int(),
      id_encrypted: z.string(),
      name: z.string(),
      counts: z.record(z.string(), z.number().int()).catch({}),
    }),
  ),
});
export type LotsCard = z.infer<typeof lotsCardSchema>;
export const lotsCardResponseSchema = dataResponseSchema(lotsCardSchema);

/**
 * GET /api/dashboard/leads — open work and the month's conversion, scoped like the Leads list:
 * `by_status` counts per lead status (link /CRM/LEADS?status=<status>); `month` = leads that
 * arrived this month (`arrived`) and how many of them are CONCRETADO (`converted`), with
 * `rate_bp` = converted ÷ arrived in basis points (null when none arrived); `follow_ups_due` =
 * open leads whose follow-up is past (the total of its link /CRM/LEADS?overdue=true).
 * Permissions: Acceso módulo CRM + Acceso submódulo leads.
 */
export const leadsCardSchema = z.object({
  as_of: dateText,
  by_status: tolerantList(z.object({ status: z.string(), count: z.number().int() })),
  month: z.object({ arrived: z.number().int(), converted: z.number().int(), rate_bp: z.number().int().nullable() }),
  follow_ups_due: z.number().int().default(0),
});
export type LeadsCard = z.infer<typeof leadsCardSchema>;
export const leadsCardResponseSchema = dataResponseSchema(leadsCardSchema);

/**
 * GET /api/dashboard/top-agents — this month's five agents with most sales (count, then amount in
 * PEN), ANULADA left out; per agent `count` and per currency `amount` (céntimos).
 * Link: /COMERCIO/reporteVentas?from=…&to=…&agent_id=<id>.
 * Permissions: Acceso módulo comercial + Acceso submódulo ventas.
 */
export const topAgentsCardSchema = z.object({
  from: dateText,
  to: dateText,
  agents: tolerantList(z.object({ id: z.number().int(), name: z.string(), count: z.number().int(), by_currency: tolerantList(moneyRow) })),
});
export type TopAgentsCard = z.infer<typeof topAgentsCardSchema>;
export const topAgentsCardResponseSchema = dataResponseSchema(topAgentsCardSchema);

/**
 * GET /api/dashboard/payments-review — payments waiting for review (status PENDIENTE): `count`,
 * per currency `amount`, and the five oldest (by registration, oldest first) with the customer,
 * the sale or reservation, the method and when they were registered.
 * Link: /FINANZAS/Pagos?status=PENDIENTE.
 * Permissions: Acceso módulo finanzas + Acceso submódulo pagos.
 */
export const paymentsReviewCardSchema = z.object({
  count: z.number().int(),
  by_currency: tolerantList(moneyRow),
  oldest: tolerantList(
    z.object({
      id: z.number().int(),
      customer_name: z.string().default(''),
      reference: z.string().default(''),
      method: z.string().default(''),
      currency: currencySchema,
      amount: z.number().int(),
      created_at: z.string(),
    }),
  ),
});
export type PaymentsReviewCard = z.infer<typeof paymentsReviewCardSchema>;
export const paymentsReviewCardResponseSchema = dataResponseSchema(paymentsReviewCardSchema);

/**
 * GET /api/dashboard/expiring-reservations — reservations (separaciones) PENDIENTE_PAGO or VIGENTE
 * whose `expires_at` falls in the next 48 hours, soonest first (at most 10), scoped like the
 * reservations list; `count` is all of them.
 * Link: /COMERCIO/ventas?vista=separaciones.
 * Permissions: Acceso módulo comercial + Acceso submódulo ventas.
 */
export const expiringReservationsCardSchema = z.object({
  count: z.number().int(),
  reservations: tolerantList(
    z.object({
      id: z.number().int(),
      lot_code: z.string().default(''),
      subdivision_name: z.string().default(''),
      customer_name: z.string().default(''),
      agent_name: z.string().default(''),
      expires_at: z.string(),
    }),
  ),
});
export type ExpiringReservationsCard = z.infer<typeof expiringReservationsCardSchema>;
export const expiringReservationsCardResponseSchema = dataResponseSchema(expiringReservationsCardSchema);

// ---------------------------------------------------------------------------------------------
// Agent and collector cards
// ---------------------------------------------------------------------------------------------

/**
 * GET /api/dashboard/follow-ups — the user's own open leads whose follow-up is overdue (the
 * Leads list's `overdue=true`: `next_follow_up_at` before now — the list has no "due later today"
 * filter, so the card counts what its link shows), most overdue first (at most 10), `count` all of them.
 * Link: /CRM/LEADS?mine=true&overdue=true (a row: /CRM/LEADS?lead=<id>).
 * Permissions: Acceso módulo CRM + Acceso submódulo leads.
 */
export const followUpsCardSchema = z.object({
  count: z.number().int(),
  leads: tolerantList(
    z.object({ id: z.number().int(), name: z.string(), phone: z.string().nullable().default(null), next_follow_up_at: z.string() }),
  ),
});
export type FollowUpsCard = z.infer<typeof followUpsCardSchema>;
export const followUpsCardResponseSchema = dataResponseSchema(followUpsCardSchema);

/**
 * GET /api/dashboard/commissions — the user's own commissions (docs/domain.md "Commissions"):
 * per currency `earned` (DEVENGADA, not yet in a settlement) and `to_pay` (in an approved
 * settlement not yet paid), céntimos.
 * Link: /ADMINISTRACION/ComisionesPagos.
 * Permissions: Acceso módulo administración + Acceso submódulo comisiones.
 */
export const commissionsCardSchema = z.object({
  by_currency: tolerantList(z.object({ currency: currencySchema, earned: z.number().int(), to_pay: z.number().int() })),
});
export type CommissionsCard = z.infer<typeof commissionsCardSchema>;
export const commissionsCardResponseSchema = dataResponseSchema(commissionsCardSchema);

/**
 * GET /api/dashboard/due-soon — instalments due from today to today + 7 days, not paid: `count`,
 * per currency `amount` (Σ outstanding, céntimos). Link: /FINANZAS/RegistroCuotas?due_from=…&due_to=….
 * Permissions: Acceso módulo finanzas + Acceso submódulo pagos.
 */
export const dueSoonCardSchema = z.object({ from: dateText, to: dateText, count: z.number().int(), by_currency: tolerantList(moneyRow) });
export type DueSoonCard = z.infer<typeof dueSoonCardSchema>;
export const dueSoonCardResponseSchema = dataResponseSchema(dueSoonCardSchema);

/**
 * GET /api/dashboard/late-customers — the ten customers with the most days late (their oldest
 * unpaid instalment past due), with their phone, the amount overdue per currency and a WhatsApp
 * link (`https://wa.me/<digits>?text=<reminder>`, null without a phone) carrying the Spanish
 * reminder of docs/dashboard.md "WhatsApp reminder".
 * Link: /FINANZAS/RegistroCuotas?customer_id=<id>&status=VENCIDA.
 * Permissions: Acceso módulo finanzas + Acceso submódulo pagos.
 */
export const lateCustomersCardSchema = z.object({
  customers: tolerantList(
    z.object({
      id: z.number().int(),
      name: z.string(),
      phone: z.string().nullable().default(null),
      days_late: z.number().int(),
      by_currency: tolerantList(moneyRow),
      whatsapp_url: z.string().nullable().default(null),
    }),
  ),
});
export type LateCustomersCard = z.infer<typeof lateCustomersCardSchema>;
export const lateCustomersCardResponseSchema = dataResponseSchema(lateCustomersCardSchema);

// The card table (ids, titles, permissions, the realtime event's name) lives in ./dashboard-cards.ts,
// free of zod, so Inicio's page can choose its cards without loading the schemas: re-exported here.
export {
  DASHBOARD_CARDS,
  DASHBOARD_CARD_PERMISSIONS,
  DASHBOARD_CARD_TITLES,
  DASHBOARD_CHANGED_EVENT,
  type DashboardCardId,
} from './dashboard-cards';

/** The payload of `DASHBOARD_CHANGED_EVENT`: which cards' figures moved (the screen reloads those). */
export const dashboardChangedEventSchema = z.object({ cards: z.array(z.string()).catch([]) });
export type DashboardChangedEvent = z.infer<typeof dashboardChangedEventSchema>;
