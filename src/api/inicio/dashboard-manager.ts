import type { ApiClient } from '../client';
import { request } from '../client';
import {
  collectionsCardResponseSchema,
  leadsCardResponseSchema,
  lotsCardResponseSchema,
  overdueCardResponseSchema,
  salesCardResponseSchema,
  topAgentsCardResponseSchema,
  type CollectionsCard,
  type LeadsCard,
  type LotsCard,
  type OverdueCard,
  type SalesCard,
  type TopAgentsCard,
} from '../../schemas/inicio/dashboard';

/**
 * Inicio's manager cards (staff base, GET dashboard/{card}; contract in
 * src/schemas/inicio/dashboard.ts, docs/dashboard.md "Manager cards"): one call per card, no query,
 * each answer read tolerantly (a bad row drops that row only). Every function throws
 * {@link import('../client').ApiError} on failure: 401 without a session, 403 without the card's
 * permissions (DASHBOARD_CARD_PERMISSIONS).
 */
export function createDashboardManagerApi(client: ApiClient) {
  return {
    /** GET dashboard/sales: this month, last month and the same month last year (Reporte de Ventas' totals). */
    sales: async (): Promise<SalesCard> => (await request(salesCardResponseSchema, () => client.main('dashboard/sales'))).data,
    /** GET dashboard/collections: this month's approved payments, today's, and the instalments due, per currency. */
    collections: async (): Promise<CollectionsCard> =>
      (await request(collectionsCardResponseSchema, () => client.main('dashboard/collections'))).data,
    /** GET dashboard/overdue: Registro de Cuotas' totals per days-late bucket. */
    overdue: async (): Promise<OverdueCard> => (await request(overdueCardResponseSchema, () => client.main('dashboard/overdue'))).data,
    /** GET dashboard/lots: lots per status of the active subdivisions. */
    lots: async (): Promise<LotsCard> => (await request(lotsCardResponseSchema, () => client.main('dashboard/lots'))).data,
    /** GET dashboard/leads: leads per status, overdue follow-ups and this month's conversion (the caller's scope). */
    leads: async (): Promise<LeadsCard> => (await request(leadsCardResponseSchema, () => client.main('dashboard/leads'))).data,
    /** GET dashboard/top-agents: this month's five agents with most sales. */
    topAgents: async (): Promise<TopAgentsCard> =>
      (await request(topAgentsCardResponseSchema, () => client.main('dashboard/top-agents'))).data,
  };
}
