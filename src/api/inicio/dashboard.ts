import type { ApiClient } from '../client';
import { request } from '../client';
import {
  collectionsCardResponseSchema,
  commissionsCardResponseSchema,
  dueSoonCardResponseSchema,
  expiringReservationsCardResponseSchema,
  followUpsCardResponseSchema,
  lateCustomersCardResponseSchema,
  leadsCardResponseSchema,
  lotsCardResponseSchema,
  overdueCardResponseSchema,
  paymentsReviewCardResponseSchema,
  salesCardResponseSchema,
  topAgentsCardResponseSchema,
  type CollectionsCard,
  type CommissionsCard,
  type DashboardCardId,
  type DueSoonCard,
  type ExpiringReservationsCard,
  type FollowUpsCard,
  type LateCustomersCard,
  type LeadsCard,
  type LotsCard,
  type OverdueCard,
  type PaymentsReviewCard,
  type SalesCard,
  type TopAgentsCard,
} from '../../schemas/inicio/dashboard';

/** The figures of each card of Inicio, by card id (src/schemas/inicio/dashboard.ts). */
export interface DashboardCardData {
  sales: SalesCard;
  collections: CollectionsCard;
  overdue: OverdueCard;
  'payments-review': PaymentsReviewCard;
  'due-soon': DueSoonCard;
  'late-customers': LateCustomersCard;
  'follow-ups': FollowUpsCard;
  'expiring-reservations': ExpiringReservationsCard;
  commissions: CommissionsCard;
  'top-agents': TopAgentsCard;
  leads: LeadsCard;
  lots: LotsCard;
}

/**
 * Inicio, the staff dashboard (docs/dashboard.md; src/schemas/inicio/dashboard.ts): one GET per
 * card on the staff base, `dashboard/<card>`, each answered only to a user holding the card's
 * permissions (`DASHBOARD_CARD_PERMISSIONS`) and scoped like the list it summarises. Every
 * function resolves with the card's figures (money in integer céntimos per currency, dates Lima
 * yyyy-mm-dd) and throws {@link import('../client').ApiError} on failure (403 without the
 * permissions; the Spanish message is the server's).
 */
export function createDashboardApi(client: ApiClient): { [K in DashboardCardId]: () => Promise<DashboardCardData[K]> } {
  return {
    /** GET dashboard/sales: this month, last month and the same month last year (count, amount, area, price per m²). */
    sales: async () => (await request(salesCardResponseSchema, () => client.main('dashboard/sales'))).data,
    /** GET dashboard/collections: this month's collected, expected and collected today, per currency. */
    collections: async () => (await request(collectionsCardResponseSchema, () => client.main('dashboard/collections'))).data,
    /** GET dashboard/overdue: the portfolio by days-late bucket (count and amount per currency). */
    overdue: async () => (await request(overdueCardResponseSchema, () => client.main('dashboard/overdue'))).data,
    /** GET dashboard/payments-review: payments PENDIENTE (count, amount per currency, the five oldest). */
    'payments-review': async () => (await request(paymentsReviewCardResponseSchema, () => client.main('dashboard/payments-review'))).data,
    /** GET dashboard/due-soon: instalments due in the next 7 days, not paid. */
    'due-soon': async () => (await request(dueSoonCardResponseSchema, () => client.main('dashboard/due-soon'))).data,
    /** GET dashboard/late-customers: the ten customers with most days late, with phone and WhatsApp link. */
    'late-customers': async () => (await request(lateCustomersCardResponseSchema, () => client.main('dashboard/late-customers'))).data,
    /** GET dashboard/follow-ups: the user's own leads with a follow-up due today or overdue. */
    'follow-ups': async () => (await request(followUpsCardResponseSchema, () => client.main('dashboard/follow-ups'))).data,
    /** GET dashboard/expiring-reservations: reservations expiring in the next 48 hours. */
    'expiring-reservations': async () =>
      (await request(expiringReservationsCardResponseSchema, () => client.main('dashboard/expiring-reservations'))).data,
    /** GET dashboard/commissions: the user's own commissions earned and to pay, per currency. */
    commissions: async () => (await request(commissionsCardResponseSchema, () => client.main('dashboard/commissions'))).data,
    /** GET dashboard/top-agents: this month's five agents with most sales. */
    'top-agents': async () => (await request(topAgentsCardResponseSchema, () => client.main('dashboard/top-agents'))).data,
    /** GET dashboard/leads: leads by status, the month's conversion, follow-ups due. */
    leads: async () => (await request(leadsCardResponseSchema, () => client.main('dashboard/leads'))).data,
    /** GET dashboard/lots: lots by status per active subdivision. */
    lots: async () => (await request(lotsCardResponseSchema, () => client.main('dashboard/lots'))).data,
  };
}
export type DashboardApi = ReturnType<typeof createDashboardApi>;
