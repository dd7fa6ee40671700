import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  instalmentResponseSchema,
  instalmentsExportQuerySchema,
  instalmentsPageSchema,
  instalmentsQuerySchema,
  instalmentTotalsQuerySchema,
  instalmentTotalsResponseSchema,
  waiveLateFeeRequestSchema,
} from '../../../src/schemas/finanzas/instalments';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import { exportsOwner } from '../../auth/scopes';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { todayInLimaBy } from '../../clock';
import { createKeptPages } from '../../platform/revision-texts';
import { sendDownload } from '../../platform/documents';
import { exportInstalments, instalmentsListRevision, instalmentTotals, listInstalments, waiveLateFee } from './instalments.service';

/**
 * Who may read the register and waive late fees: 'Acceso módulo finanzas' + 'Acceso submódulo
 * pagos' (the spec: "pagos (also grants Registro de Cuotas)"; docs/decisions.md "Registro de
 * Cuotas and reminders" says why the waiver needs nothing more).
 */
export const INSTALMENTS_ACCESS = staffWith(MODULE.finanzas, SUBMODULE.pagos);

/**
 * Finanzas → Registro de Cuotas: GET /api/instalments (paged), GET /api/instalments/totals,
 * GET /api/instalments/export (csv | xlsx; only the caller's sales under the exports scope,
 * server/auth/scopes.ts) and POST /api/instalments/{id}/waive-late-fee
 * (src/schemas/finanzas/instalments.ts).
 */
export function instalmentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: INSTALMENTS_ACCESS };
    // Pages and totals kept per revision of the register and day (server/platform/revision-texts.ts;
    // migration 0027; docs/performance.md "Registro de Cuotas"): read and serialised again only after
    // a write that changes them, or when the day (days late) changes.
    const sendPage = createKeptPages({ keep: deps.config.keepAnswers });
    const revision = async () => `${await instalmentsListRevision(deps.db)}:${todayInLimaBy(deps.clock)}`;

    app.get(
      `${MAIN_BASE}/instalments`,
      { config, schema: { querystring: instalmentsQuerySchema, response: { 200: instalmentsPageSchema } } },
      async (request, reply) =>
        sendPage(request, reply, { name: 'instalments', query: request.query, revision: await revision() }, () =>
          listInstalments(deps, request.query),
        ),
    );

    app.get(
      `${MAIN_BASE}/instalments/totals`,
      { config, schema: { querystring: instalmentTotalsQuerySchema, response: { 200: instalmentTotalsResponseSchema } } },
      async (request, reply) =>
        sendPage(request, reply, { name: 'instalment-totals', query: request.query, revision: await revision() }, async () => ({
          data: await instalmentTotals(deps, request.query),
        })),
    );

    app.get(
      `${MAIN_BASE}/instalments/export`,
      { config, schema: { querystring: instalmentsExportQuerySchema } },
      async (request, reply) => {
        const owner = await exportsOwner(deps.db, request, SUBMODULE.pagos);
        const { truncated, ...file } = await exportInstalments(deps, request.query, owner);
        return sendDownload(reply.header('x-parcela-truncated', truncated ? '1' : '0'), file);
      },
    );

    app.post(
      `${MAIN_BASE}/instalments/:id/waive-late-fee`,
      { config, schema: { params: idParamsSchema, body: waiveLateFeeRequestSchema, response: { 200: instalmentResponseSchema } } },
      async (request) => ({
        data: await waiveLateFee(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
  };
}
