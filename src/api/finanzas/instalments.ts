import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  instalmentResponseSchema,
  instalmentsPageSchema,
  instalmentTotalsResponseSchema,
  type InstalmentRow,
  type InstalmentTotals,
  type WaiveLateFeeRequest,
} from '../../schemas/finanzas/instalments';

/** A file the server wrote (the register's export). */
export interface InstalmentsExport {
  blob: Blob;
  format: 'csv' | 'xlsx';
}

/**
 * Finanzas → Registro de Cuotas (staff base, 'Acceso módulo finanzas' + 'Acceso submódulo pagos';
 * contract in src/schemas/finanzas/instalments.ts). Every function throws
 * {@link import('../client').ApiError} on failure: 422 carries field errors (`amount`, `reason`,
 * `due_from`), 409 an ANULADA sale.
 */
export function createInstalmentsApi(client: ApiClient) {
  /** The list's query without paging and sort (totals take the filters and `q`). */
  const filterParams = (query: ListQuery) => {
    const params = listParams(query);
    delete params.page;
    delete params.per_page;
    delete params.sort;
    return params;
  };
  return {
    /**
     * GET instalments: `q` (customer name or document, lot code, sale number); filters
     * `subdivision_id`, `customer_id`, `sale_id`, `status`, `due_from`, `due_to`, `days_late`;
     * sort due_date | amount | late_fee_accrued.
     */
    list: (query: ListQuery) => request(instalmentsPageSchema, () => client.main('instalments', { query: listParams(query) })),
    /** GET instalments/totals: the filtered set's totals, one entry per currency. */
    totals: async (query: ListQuery): Promise<InstalmentTotals[]> =>
      (await request(instalmentTotalsResponseSchema, () => client.main('instalments/totals', { query: filterParams(query) }))).data,
    /** POST instalments/{id}/waive-late-fee: `amount` céntimos ≤ the fee owed, `reason`. @returns the row after it. */
    waive: async (id: number, body: WaiveLateFeeRequest): Promise<InstalmentRow> =>
      (await request(instalmentResponseSchema, () => client.main(`instalments/${id}/waive-late-fee`, { method: 'POST', body }))).data,
    /** GET instalments/export: the filtered rows (the list's order, ≤ 20 000) as a CSV or XLSX file. */
    exportFile: async (query: ListQuery, format: 'csv' | 'xlsx'): Promise<InstalmentsExport> => {
      const params = listParams(query);
      delete params.page;
      delete params.per_page;
      try {
        const blob = await client.main<Blob, 'blob'>('instalments/export', { query: { ...params, format }, responseType: 'blob' });
        return { blob, format };
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type InstalmentsApi = ReturnType<typeof createInstalmentsApi>;
