import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import {
  reportOptionsResponseSchema,
  reportReadResponseSchema,
  type Report,
  type ReportId,
  type ReportOptions,
  type ReportQuery,
} from '../../schemas/reportes/report';

/** The query as URL parameters (filters not set are left out). */
const params = (query: ReportQuery): Record<string, string> =>
  Object.fromEntries(Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));

/**
 * /Reportes and /ReportesEconomicos (staff base; 'Acceso módulo reportes' or 'Acceso módulo
 * reportes económicos' per report; src/schemas/reportes/report.ts). Every function throws
 * {@link import('../client').ApiError} on failure: 422 with the field errors of a bad filter, 409
 * when an export is over its row cap.
 */
export function createReportsApi(client: ApiClient) {
  return {
    /** GET reports/{id}: the report's first rows, its row count, totals per currency and chart (money in céntimos). */
    report: async (id: ReportId, query: ReportQuery): Promise<Report> =>
      (await request(reportReadResponseSchema, () => client.main(`reports/${id}`, { query: params(query) }))).data,
    /** GET reports/options: the subdivisions and the agents of the filters. */
    options: async (): Promise<ReportOptions> => (await request(reportOptionsResponseSchema, () => client.main('reports/options'))).data,
    /** GET reports/{id}.xlsx or .pdf: every row as a file, with the printed header. */
    file: async (id: ReportId, query: ReportQuery, format: 'xlsx' | 'pdf'): Promise<Blob> => {
      try {
        return await client.main<Blob, 'blob'>(`reports/${id}.${format}`, { query: params(query), responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type ReportsApi = ReturnType<typeof createReportsApi>;
