import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  saleAnnulmentResponseSchema,
  proposedAgentResponseSchema,
  saleResponseSchema,
  salesPageSchema,
  type AnnulSaleRequest,
  type CreateSaleRequest,
  type Sale,
} from '../../schemas/comercio/sales';
import {
  reschedulePreviewResponseSchema,
  saleRescissionResponseSchema,
  saleSchedulesResponseSchema,
  type RescindSaleRequest,
  type ReschedulePreviewQuery,
  type RescheduleSaleRequest,
} from '../../schemas/comercio/rescissions';

/**
 * Comercial → ventas (staff base, 'Acceso módulo comercial' + 'Acceso submódulo ventas'). Every
 * function throws {@link import('../client').ApiError} on failure (422 field errors; 409 "El lote ya
 * no está disponible", a lot held by another customer, an annulled sale or a stale one).
 */
export function createSalesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Sale> => (await request(saleResponseSchema, run)).data;
  return {
    /** GET sales: `q` (number, buyer, document, lot code); filters `status`, `type`, `subdivision_id`, `agent_id`, `customer_id`, `lot_id`. */
    list: (query: ListQuery) => request(salesPageSchema, () => client.main('sales', { query: listParams(query) })),
    /** GET sales/{id}: with its schedule. */
    get: (id: number) => one(() => client.main(`sales/${id}`)),
    /** POST sales: the lot turns VENDIDO in the same transaction. */
    create: (body: CreateSaleRequest) => one(() => client.main('sales', { method: 'POST', body })),
    /** GET sales/{id}/annulment: the approved money on the sale and the sales it may be credited to. */
    annulment: async (id: number) => (await request(saleAnnulmentResponseSchema, () => client.main(`sales/${id}/annulment`))).data,
    /** GET sales/proposed-agent: the agent a sale of the lot to these buyers (titular first) is credited to, and why. */
    proposedAgent: async (lotId: number, customerIds: readonly number[]) =>
      (
        await request(proposedAgentResponseSchema, () =>
          client.main('sales/proposed-agent', {
            query: { lot_id: lotId, ...(customerIds.length > 0 ? { customer_ids: customerIds.join(',') } : {}) },
          }),
        )
      ).data,
    /** POST sales/{id}/annul: frees the lot, keeps the history; with money paid, its settlement (docs/domain.md "Annulling a sale"). */
    annul: (id: number, body: AnnulSaleRequest) => one(() => client.main(`sales/${id}/annul`, { method: 'POST', body })),
    /** GET sales/{id}/rescission: whether the sale may be resolved today and its figures (docs/domain.md "Rescission"). */
    rescission: async (id: number) => (await request(saleRescissionResponseSchema, () => client.main(`sales/${id}/rescission`))).data,
    /** POST sales/{id}/rescind ('Resolver contratos'): the sale RESUELTA, the lot DISPONIBLE, the money settled. */
    rescind: (id: number, body: RescindSaleRequest) => one(() => client.main(`sales/${id}/rescind`, { method: 'POST', body })),
    /** GET sales/{id}/reschedule: the open balance, the late fees owed and, with the terms, the new schedule. */
    reschedulePreview: async (id: number, query: ReschedulePreviewQuery = {}) =>
      (
        await request(reschedulePreviewResponseSchema, () =>
          client.main(`sales/${id}/reschedule`, {
            query: Object.fromEntries(
              Object.entries(query)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, String(v)]),
            ),
          }),
        )
      ).data,
    /** POST sales/{id}/reschedule ('Reprogramar ventas'): the adenda (docs/domain.md "Rescheduling (adenda)"). */
    reschedule: (id: number, body: RescheduleSaleRequest) => one(() => client.main(`sales/${id}/reschedule`, { method: 'POST', body })),
    /**
     * GET a document of a sale by the `download_path` its answers give (`/api/sales/{id}/rescission/letter`,
     * `/api/sales/{id}/reschedules/{rid}/adenda`): the issued PDF's bytes (authenticated download).
     */
    document: async (path: string): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(path.replace(/^\/?api\//, ''), { responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** GET sales/{id}/schedules: the current schedule, then the superseded ones (read-only), newest first. */
    schedules: async (id: number) => (await request(saleSchedulesResponseSchema, () => client.main(`sales/${id}/schedules`))).data,
  };
}
export type SalesApi = ReturnType<typeof createSalesApi>;
