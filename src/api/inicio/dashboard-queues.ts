import type { ApiClient } from '../client';
import { request } from '../client';
import {
  commissionsCardResponseSchema,
  dueSoonCardResponseSchema,
  expiringReservationsCardResponseSchema,
  followUpsCardResponseSchema,
  lateCustomersCardResponseSchema,
  paymentsReviewCardResponseSchema,
  type CommissionsCard,
  type DueSoonCard,
  type ExpiringReservationsCard,
  type FollowUpsCard,
  type LateCustomersCard,
  type PaymentsReviewCard,
} from '../../schemas/inicio/dashboard';

/**
 * Inicio's agent and collector cards (staff base, GET dashboard/{card}; docs/dashboard.md "Agent
 * and collector cards"). Each call answers one card, parsed with its tolerant schema from
 * src/schemas/inicio/dashboard.ts (a bad row is dropped, not the card). Every function throws
 * {@link import('../client').ApiError}: 401 without a session, 403 without the card's permissions
 * (DASHBOARD_CARD_PERMISSIONS).
 */
export function createDashboardQueuesApi(client: ApiClient) {
  return {
    /** GET dashboard/payments-review: payments PENDIENTE — count, Σ per currency, the five oldest. */
    paymentsReview: async (): Promise<PaymentsReviewCard> =>
      (await request(paymentsReviewCardResponseSchema, () => client.main('dashboard/payments-review'))).data,
    /** GET dashboard/expiring-reservations: live reservations expiring within 48 hours. */
    expiringReservations: async (): Promise<ExpiringReservationsCard> =>
      (await request(expiringReservationsCardResponseSchema, () => client.main('dashboard/expiring-reservations'))).data,
    /** GET dashboard/follow-ups: the caller's own open leads with an overdue follow-up. */
    followUps: async (): Promise<FollowUpsCard> =>
      (await request(followUpsCardResponseSchema, () => client.main('dashboard/follow-ups'))).data,
    /** GET dashboard/commissions: the caller's own commissions earned and to pay, per currency. */
    commissions: async (): Promise<CommissionsCard> =>
      (await request(commissionsCardResponseSchema, () => client.main('dashboard/commissions'))).data,
    /** GET dashboard/due-soon: instalments due from today to today + 7 not paid off. */
    dueSoon: async (): Promise<DueSoonCard> => (await request(dueSoonCardResponseSchema, () => client.main('dashboard/due-soon'))).data,
    /** GET dashboard/late-customers: the ten customers most days late, with the WhatsApp reminder link. */
    lateCustomers: async (): Promise<LateCustomersCard> =>
      (await request(lateCustomersCardResponseSchema, () => client.main('dashboard/late-customers'))).data,
  };
}
