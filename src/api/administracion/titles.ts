import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  publicHolidayResponseSchema,
  publicHolidaysPageSchema,
  titleBoardResponseSchema,
  titleProcessResponseSchema,
  titleProcessesPageSchema,
  titleSaleOptionsResponseSchema,
  type CreatePublicHolidayRequest,
  type CreateTitleProcessRequest,
  type PublicHoliday,
  type TitleBoard,
  type TitleProcessDetail,
  type TitleSaleOption,
  type TitleTransitionRequest,
  type UpdatePublicHolidayRequest,
  type UpdateTitleProcessRequest,
} from '../../schemas/administracion/titles';

/**
 * Administración → Registros de partidas y títulos (staff base; 'Acceso módulo administración' +
 * 'Acceso submódulo registros de partidas y títulos'; editing holidays needs Configuración →
 * Empresas). Contract in src/schemas/administracion/titles.ts. Every function throws
 * {@link import('../client').ApiError}: 409 a move not allowed, a sale not paid off, a duplicate
 * process or a stale version; 422 per field.
 */
export function createTitlesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<TitleProcessDetail> => (await request(titleProcessResponseSchema, run)).data;
  const holiday = async (run: () => Promise<unknown>): Promise<PublicHoliday> => (await request(publicHolidayResponseSchema, run)).data;
  return {
    /** GET title-processes: `q` (sale number, lot, titular, título, partida); filters `state`, `subdivision_id`; sort `state_since`, `created_at`, `deadline`. */
    list: (query: ListQuery) => request(titleProcessesPageSchema, () => client.main('title-processes', { query: listParams(query) })),
    /** GET title-processes/board: processes per state, optionally of one subdivision. */
    board: async (subdivisionId?: number): Promise<TitleBoard> =>
      (
        await request(titleBoardResponseSchema, () =>
          client.main('title-processes/board', { query: subdivisionId === undefined ? {} : { subdivision_id: subdivisionId } }),
        )
      ).data,
    /** GET title-processes/{id}: with its history. */
    get: (id: number) => one(() => client.main(`title-processes/${id}`)),
    /** POST title-processes: the process of a sale (one per sale). */
    create: (body: CreateTitleProcessRequest) => one(() => client.main('title-processes', { method: 'POST', body })),
    /** PATCH title-processes/{id}: the retention-of-title pact and the notes. */
    update: (id: number, body: UpdateTitleProcessRequest) => one(() => client.main(`title-processes/${id}`, { method: 'PATCH', body })),
    /** POST title-processes/{id}/transition: to the next state with its fields. */
    transition: (id: number, body: TitleTransitionRequest) =>
      one(() => client.main(`title-processes/${id}/transition`, { method: 'POST', body })),
    /** GET title-processes/sale-options?q=: sales without a process (not annulled) for "Nuevo trámite", paid-off first. */
    saleOptions: async (q: string): Promise<TitleSaleOption[]> =>
      (await request(titleSaleOptionsResponseSchema, () => client.main('title-processes/sale-options', { query: q ? { q } : {} }))).data,
    /** POST title-processes/{id}/delivery-record (multipart `file`): the acta de entrega, a PDF or an image ≤ 10 MB (INSCRITO or ENTREGADO). */
    uploadDeliveryRecord: (id: number, file: Blob, filename = 'acta-entrega') => {
      const body = new FormData();
      body.append('file', file, filename);
      return one(() => client.main(`title-processes/${id}/delivery-record`, { method: 'POST', body }));
    },
    /** GET title-processes/{id}/delivery-record: the acta's bytes (authenticated download). */
    deliveryRecord: async (id: number): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(`title-processes/${id}/delivery-record`, { responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** GET public-holidays?year=: a page of holidays in date order. */
    holidays: (query: { page: number; per_page: number; year?: number }) =>
      request(publicHolidaysPageSchema, () => client.main('public-holidays', { query })),
    /** POST public-holidays. */
    createHoliday: (body: CreatePublicHolidayRequest) => holiday(() => client.main('public-holidays', { method: 'POST', body })),
    /** PATCH public-holidays/{id}. */
    updateHoliday: (id: number, body: UpdatePublicHolidayRequest) =>
      holiday(() => client.main(`public-holidays/${id}`, { method: 'PATCH', body })),
    /** DELETE public-holidays/{id}. */
    deleteHoliday: async (id: number): Promise<void> => {
      try {
        await client.main(`public-holidays/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type TitlesApi = ReturnType<typeof createTitlesApi>;
