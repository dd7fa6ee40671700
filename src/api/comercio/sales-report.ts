import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import {
  salesReportOptionsResponseSchema,
  salesReportResponseSchema,
  type SalesReport,
  type SalesReportFormat,
  type SalesReportOptions,
  type SalesReportQuery,
} from '../../schemas/comercio/sales-report';

/** The query as URL parameters (filters left out when not set). */
const params = (query: SalesReportQuery): Record<string, string> => ({
  from: query.from,
  to: query.to,
  ...(query.subdivision_id !== undefined ? { subdivision_id: String(query.subdivision_id) } : {}),
  ...(query.agent_id !== undefined ? { agent_id: String(query.agent_id) } : {}),
  ...(query.channel !== undefined ? { channel: query.channel } : {}),
});

/**
 * Comercial → Reporte de Ventas (staff base, 'Acceso módulo comercial' + 'Acceso submódulo
 * reporte ventas'; src/schemas/comercio/sales-report.ts). Every function throws
 * {@link import('../client').ApiError} on failure (422 with the field errors of a bad period).
 */
export function createSalesReportApi(client: ApiClient) {
  return {
    /** GET sales/report: totals, by month, subdivision, agent and channel, per currency (céntimos). */
    report: async (query: SalesReportQuery): Promise<SalesReport> =>
      (await request(salesReportResponseSchema, () => client.main('sales/report', { query: params(query) }))).data,
    /** GET sales/report/options: the subdivisions and the agents of the filters. */
    options: async (): Promise<SalesReportOptions> =>
      (await request(salesReportOptionsResponseSchema, () => client.main('sales/report/options'))).data,
    /** GET sales/report.xlsx or .pdf: the same figures as a file. */
    file: async (query: SalesReportQuery, format: SalesReportFormat): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(`sales/report.${format}`, { query: params(query), responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type SalesReportApi = ReturnType<typeof createSalesReportApi>;
