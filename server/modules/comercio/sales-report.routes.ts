import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  salesReportOptionsResponseSchema,
  salesReportQuerySchema,
  salesReportResponseSchema,
} from '../../../src/schemas/comercio/sales-report';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { staffWithAnyOf } from '../../auth/guard';
import { exportsOwner } from '../../auth/scopes';
import type { AppDeps } from '../../context';
import { MAIN_BASE } from '../../platform/bases';
import { sendDownload } from '../../platform/documents';
import { salesReport, salesReportFile, salesReportOptions } from './sales-report.service';
import type { SalesReportQuery } from '../../../src/schemas/comercio/sales-report';
import type { FastifyRequest } from 'fastify';

/**
 * Who may read the sales report: 'Acceso módulo comercial' + 'Acceso submódulo reporte ventas'
 * (Comercial → Reporte de Ventas), or 'Acceso módulo reportes' (its Ventas tab on /Reportes:
 * the same report, merged there rather than written twice; docs/reports.md).
 */
export const SALES_REPORT_ACCESS = staffWithAnyOf([MODULE.comercial, SUBMODULE.reporteVentas], [MODULE.reportes]);

/**
 * Comercial → Reporte de Ventas: GET /api/sales/report (figures), GET /api/sales/report/options
 * (the filters' choices), GET /api/sales/report.xlsx and GET /api/sales/report.pdf (the same
 * figures as files). Bad input (dates, a period over five years, an unknown channel) is a 422 in
 * Spanish (src/schemas/comercio/sales-report.ts). A caller narrowed by the exports scope
 * (server/auth/scopes.ts exportsOwner) gets the figures of their own sales only: the agent filter is
 * forced to them, whatever the query names (docs/security.md 31.11).
 */
export function salesReportRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: SALES_REPORT_ACCESS };
    /** The query with the caller's exports scope applied. */
    const scoped = async (request: FastifyRequest, query: SalesReportQuery): Promise<SalesReportQuery> => {
      const owner = await exportsOwner(deps.db, request, SUBMODULE.reporteVentas);
      return owner === null ? query : { ...query, agent_id: owner };
    };

    app.get(
      `${MAIN_BASE}/sales/report`,
      { config, schema: { querystring: salesReportQuerySchema, response: { 200: salesReportResponseSchema } } },
      async (request) => ({ data: await salesReport(deps, await scoped(request, request.query)) }),
    );

    app.get(
      `${MAIN_BASE}/sales/report/options`,
      { config, schema: { response: { 200: salesReportOptionsResponseSchema } } },
      async (request) => ({
        data: await salesReportOptions(deps, await exportsOwner(deps.db, request, SUBMODULE.reporteVentas)),
      }),
    );

    for (const format of ['xlsx', 'pdf'] as const)
      app.get(
        `${MAIN_BASE}/sales/report.${format}`,
        { config, schema: { querystring: salesReportQuerySchema } },
        async (request, reply) => {
          return sendDownload(reply, await salesReportFile(deps, await scoped(request, request.query), format));
        },
      );
  };
}
