import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  lotResponseSchema,
  lotsPageSchema,
  lotStatusAnswerSchema,
  lotStatusHistoryPageSchema,
  priceChangePreviewResponseSchema,
  priceChangeResultResponseSchema,
  type BulkPriceRequest,
  type ChangeLotStatusRequest,
  type CreateLotRequest,
  type Lot,
  type UpdateLotRequest,
} from '../../schemas/proyectos/projects';
import type { z } from 'zod';
import { lotHoldResponseSchema, lotHoldsPageSchema, type LotHold, type LotHoldState } from '../../schemas/proyectos/lot-holds';

/** What a price preview answers (totals in céntimos of `currency`, first 100 rows). */
export type PricePreview = z.infer<typeof priceChangePreviewResponseSchema>['data'];

/**
 * Proyectos → Lotes of one subdivision (staff base, 'Acceso módulo proyectos' + 'Acceso submódulo
 * lotizaciones'; contract in src/schemas/proyectos/projects.ts). Money in céntimos, areas in m², lengths in
 * metres. Every function throws {@link import('../client').ApiError}: 422 with field errors (e.g.
 * `list_price_reason`, `reason`), 409 for a transition the state chart forbids or deleting a lot
 * that is not Disponible, 404 for an unknown key or id.
 */
export function createLotsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Lot> => (await request(lotResponseSchema, run)).data;
  const k = encodeURIComponent;
  return {
    /** GET subdivisions/{key}/lots: `q` (code, notes), filters `status`, `block`, `stage_id`; ≤ 100 per page. */
    list: (key: string, query: ListQuery) =>
      request(lotsPageSchema, () => client.main(`subdivisions/${k(key)}/lots`, { query: listParams(query) })),
    /** GET lots/{id}. */
    get: (id: number) => one(() => client.main(`lots/${id}`)),
    /** POST subdivisions/{key}/lots → 201 (block created when missing; status DISPONIBLE). */
    create: (key: string, body: CreateLotRequest) => one(() => client.main(`subdivisions/${k(key)}/lots`, { method: 'POST', body })),
    /** PATCH lots/{id} (any subset; never the status). */
    update: (id: number, body: UpdateLotRequest) => one(() => client.main(`lots/${id}`, { method: 'PATCH', body })),
    /** DELETE lots/{id} → 204; 409 unless the lot is Disponible. */
    remove: async (id: number): Promise<void> => {
      try {
        await client.main(`lots/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /**
     * POST lots/{id}/status `{status, reason?, until?}` → the lot, and `pending` (the Spanish note) when
     * the hold waits for a supervisor (202, the lot unchanged; docs/domain.md "Lot holds"); 409
     * forbidden transition, 422 on `reason` or `until`.
     */
    changeStatus: async (id: number, body: ChangeLotStatusRequest): Promise<{ lot: Lot; pending: string | null }> => {
      const answer = await request(lotStatusAnswerSchema, () => client.main(`lots/${id}/status`, { method: 'POST', body }));
      return { lot: answer.data, pending: answer.message ?? null };
    },
    /**
     * GET lot-holds: hold requests in `state` (default PENDIENTE), oldest first; only one's own
     * without 'Aprobar bloqueos de lotes' (docs/domain.md "Lot holds").
     */
    holds: (query: { state?: LotHoldState; subdivision_id?: number; page?: number; per_page?: number } = {}) =>
      request(lotHoldsPageSchema, () =>
        client.main('lot-holds', {
          query: {
            state: query.state ?? 'PENDIENTE',
            page: query.page ?? 1,
            per_page: query.per_page ?? 50,
            ...(query.subdivision_id ? { subdivision_id: query.subdivision_id } : {}),
          },
        }),
      ),
    /** POST lot-holds/{id}/approve (applies the hold) or …/reject → the hold; 409 when no longer pending or the lot moved. */
    decideHold: async (id: number, approve: boolean, reason: string | null = null): Promise<LotHold> =>
      (
        await request(lotHoldResponseSchema, () =>
          client.main(`lot-holds/${id}/${approve ? 'approve' : 'reject'}`, { method: 'POST', body: { reason } }),
        )
      ).data,
    /** GET lots/{id}/status-history (newest first, paged). */
    statusHistory: (id: number, query: { page?: number; per_page?: number } = {}) =>
      request(lotStatusHistoryPageSchema, () =>
        client.main(`lots/${id}/status-history`, { query: { page: query.page ?? 1, per_page: query.per_page ?? 50 } }),
      ),
    /** POST subdivisions/{key}/lots/price-preview: nothing stored; count, totals and the first 100 rows. */
    pricePreview: async (key: string, body: BulkPriceRequest): Promise<PricePreview> =>
      (
        await request(priceChangePreviewResponseSchema, () =>
          client.main(`subdivisions/${k(key)}/lots/price-preview`, { method: 'POST', body }),
        )
      ).data,
    /** POST subdivisions/{key}/lots/price-update: applies the change in one transaction → `{updated}`. */
    priceUpdate: async (key: string, body: BulkPriceRequest): Promise<{ updated: number }> =>
      (
        await request(priceChangeResultResponseSchema, () =>
          client.main(`subdivisions/${k(key)}/lots/price-update`, { method: 'POST', body }),
        )
      ).data,
  };
}
export type LotsApi = ReturnType<typeof createLotsApi>;
