import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  quoteResponseSchema,
  quotesPageSchema,
  type ChangeQuoteStatusRequest,
  type CreateQuoteRequest,
  type Quote,
} from '../../schemas/comercio/quotes';

/**
 * Comercial → cotizaciones (staff base, 'Acceso módulo comercial' + 'Acceso submódulo ventas').
 * Every function throws {@link import('../client').ApiError} on failure (422 field errors; 409 an
 * expired quote or a stale one).
 */
export function createQuotesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Quote> => (await request(quoteResponseSchema, run)).data;
  return {
    /** GET quotes: `q` (customer, document, lot code, "COT-…"); filters `status`, `lot_id`, `customer_id`, `subdivision_id`. */
    list: (query: ListQuery) => request(quotesPageSchema, () => client.main('quotes', { query: listParams(query) })),
    /** GET quotes/{id}: with its down-payment parts and schedule. */
    get: (id: number) => one(() => client.main(`quotes/${id}`)),
    /** POST quotes: a BORRADOR priced from the lot's list price. */
    create: (body: CreateQuoteRequest) => one(() => client.main('quotes', { method: 'POST', body })),
    /** GET quotes/{id}/pdf: the quote as a PDF (A4, company header, schedule, conditions). */
    pdf: async (id: number): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(`quotes/${id}/pdf`, { responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** POST quotes/{id}/status: ENVIADA, ACEPTADA or ANULADA, with the version read. */
    changeStatus: (id: number, body: ChangeQuoteStatusRequest) => one(() => client.main(`quotes/${id}/status`, { method: 'POST', body })),
  };
}
export type QuotesApi = ReturnType<typeof createQuotesApi>;
