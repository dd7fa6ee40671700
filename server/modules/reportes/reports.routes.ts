import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  REPORT_EXPORT_ROW_CAP,
  REPORT_FILTERS,
  REPORT_PDF_ROW_CAP,
  REPORT_MESSAGES,
  REPORT_SCREEN_ROWS,
  reportFileName,
  reportOptionsResponseSchema,
  reportQuerySchema,
  reportResponseSchema,
  type Report,
  type ReportFilterField,
  type ReportQuery,
} from '../../../src/schemas/reportes/report';
import { MODULE } from '../../../src/schemas/permissions';
import { requireAuth, staffWith, staffWithAnyOf } from '../../auth/guard';
import { salesOwner } from '../../auth/scopes';
import type { AppDeps } from '../../context';
import { conflict, validationError } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { EXPORT_MIME, renderDocument, sendDownload } from '../../platform/documents';
import { salesReportOptions } from '../comercio/sales-report.service';
import { REPORTS } from './registry';
import { completeReport, reportToday, type ReportDefinition } from './report-definition';

/** Who may read a report: /Reportes 'Acceso módulo reportes', /ReportesEconomicos 'Acceso módulo reportes económicos'. */
export const REPORT_ACCESS = {
  operational: staffWith(MODULE.reportes),
  financial: staffWith(MODULE.reportesEconomicos),
} as const;

/**
 * /Reportes and /ReportesEconomicos (docs/reports.md): GET /api/reports/options (the filters'
 * choices), and per report GET /api/reports/{id} (the first {@link REPORT_SCREEN_ROWS} rows and
 * `row_count`), GET /api/reports/{id}.xlsx and .pdf (every row, on the documents' pool).
 * Bad input is a Spanish 422: the query schema (dates, a period over five years, unknown keys) and
 * a subdivision or agent that does not exist. An export past its row cap is a 409 that says so
 * before any file is made. A caller narrowed to their own sales gets their own figures only: the
 * agent filter is forced to them (docs/security.md 33.85).
 */
export function reportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    /** The report with the caller's scope applied and its filters checked. */
    async function run(request: FastifyRequest, definition: ReportDefinition, query: ReportQuery): Promise<Report> {
      const owner = await salesOwner(deps.db, request);
      const scoped = owner === null ? query : { ...query, agent_id: owner };
      if (scoped.subdivision_id !== undefined) {
        const found = await deps.db.selectFrom('subdivisions').select('id').where('id', '=', scoped.subdivision_id).executeTakeFirst();
        if (!found) throw validationError({ subdivision_id: [REPORT_MESSAGES.unknownSubdivision] }, REPORT_MESSAGES.unknownSubdivision);
      }
      if (scoped.agent_id !== undefined) {
        const found = await deps.db.selectFrom('users').select('id').where('id', '=', scoped.agent_id).executeTakeFirst();
        if (!found) throw validationError({ agent_id: [REPORT_MESSAGES.unknownAgent] }, REPORT_MESSAGES.unknownAgent);
      }
      const report = await definition.build({ deps, query: scoped, scope: { agentId: owner }, today: reportToday(deps) });
      const complete = completeReport(report);
      // The subdivision, agent and currency in words, unless the report already names them.
      const named = (await filterNames(scoped, REPORT_FILTERS[definition.id])).filter(
        (n) => !complete.filters.some((f) => f.label === n.label),
      );
      return { ...complete, filters: [...named, ...complete.filters] };
    }

    /** The subdivision, agent and currency filters in words (the printed header), of those the report reads. */
    async function filterNames(query: ReportQuery, reads: readonly ReportFilterField[]): Promise<{ label: string; value: string }[]> {
      const names: { label: string; value: string }[] = [];
      if (query.subdivision_id !== undefined && reads.includes('subdivision_id')) {
        const s = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
        names.push({ label: 'Lotización', value: s?.name ?? `#${query.subdivision_id}` });
      }
      if (query.agent_id !== undefined && reads.includes('agent_id')) {
        const a = await deps.db.selectFrom('users').select(['name', 'surname']).where('id', '=', query.agent_id).executeTakeFirst();
        names.push({ label: 'Asesor', value: a ? `${a.name} ${a.surname}`.trim() : `#${query.agent_id}` });
      }
      if (query.currency !== undefined && reads.includes('currency'))
        names.push({ label: 'Moneda', value: query.currency === 'PEN' ? 'Soles' : 'Dólares' });
      return names;
    }

    app.get(
      `${MAIN_BASE}/reports/options`,
      {
        config: { access: staffWithAnyOf([MODULE.reportes], [MODULE.reportesEconomicos]) },
        schema: { response: { 200: reportOptionsResponseSchema } },
      },
      async (request) => ({ data: await salesReportOptions(deps, await salesOwner(deps.db, request)) }),
    );

    for (const definition of REPORTS) {
      const config = { access: REPORT_ACCESS[definition.kind] };
      app.get(
        `${MAIN_BASE}/reports/${definition.id}`,
        { config, schema: { querystring: reportQuerySchema, response: { 200: reportResponseSchema } } },
        async (request) => {
          const report = await run(request, definition, request.query);
          return { data: { ...report, rows: report.rows.slice(0, REPORT_SCREEN_ROWS), row_count: report.rows.length } };
        },
      );
      for (const format of ['xlsx', 'pdf'] as const)
        app.get(
          `${MAIN_BASE}/reports/${definition.id}.${format}`,
          { config, schema: { querystring: reportQuerySchema } },
          async (request, reply) => {
            const report = await run(request, definition, request.query);
            const rows = report.rows.length;
            if (rows > REPORT_EXPORT_ROW_CAP) throw conflict(REPORT_MESSAGES.tooManyRows(rows));
            if (format === 'pdf' && rows > REPORT_PDF_ROW_CAP) throw conflict(REPORT_MESSAGES.pdfTooManyRows(rows));
            const auth = requireAuth(request);
            const user = await deps.db.selectFrom('users').select(['name', 'surname']).where('id', '=', auth.accountId).executeTakeFirst();
            const company = await deps.db.selectFrom('companies').select('business_name').orderBy('id').executeTakeFirst();
            const context = {
              companyName: company?.business_name ?? '',
              issuedAt: deps.clock.now().toISOString(),
              userName: user ? `${user.name} ${user.surname}`.trim() : '',
            };
            const bytes = await renderDocument(deps.documents, 'report.file', { format, report, context });
            return sendDownload(reply, {
              fileName: reportFileName(definition.id, { from: report.from ?? null, to: report.to ?? null }, format),
              mime: format === 'xlsx' ? EXPORT_MIME.xlsx : 'application/pdf',
              bytes,
            });
          },
        );
    }
  };
}
