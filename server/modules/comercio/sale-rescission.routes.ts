import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { saleResponseSchema } from '../../../src/schemas/comercio/sales';
import {
  rescindSaleRequestSchema,
  reschedulePreviewQuerySchema,
  reschedulePreviewResponseSchema,
  rescheduleSaleRequestSchema,
  saleRescissionResponseSchema,
  saleSchedulesResponseSchema,
} from '../../../src/schemas/comercio/rescissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { ACTION, MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { staffWith } from '../../auth/guard';
import { salesOwner } from '../../auth/scopes';
import { auditContextOf } from '../../audit/audit';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { RESERVATIONS_ACCESS } from './reservations.routes';
import { rescindSale, saleRescission } from './sale-rescission';
import { reschedulePreview, rescheduleSale, saleSchedules } from './sale-reschedule';
import { assertSaleInScope } from './sales.service';
import { sendPdf } from '../../platform/pdf';
import { saleAdendaPdf, saleLetterPdf } from '../administracion/sale-documents';

/** `{id}` of the sale and `{reschedule_id}` of its rescheduling (an adenda's PDF). */
const adendaParamsSchema = z.strictObject({ id: z.string(), reschedule_id: z.string() });

/** Resolving a sale: Ventas plus 'Resolver contratos' (docs/security.md 33.40). */
export const RESCIND_ACCESS = staffWith(MODULE.comercial, SUBMODULE.ventas, ACTION.resolverContratos);
/** Rescheduling a sale: Ventas plus 'Reprogramar ventas' (docs/security.md 33.41). */
export const RESCHEDULE_ACCESS = staffWith(MODULE.comercial, SUBMODULE.ventas, ACTION.reprogramarVentas);

/**
 * Comercial → ventas, the two legal events that end or change a sale (docs/domain.md "Rescission",
 * "Rescheduling (adenda)"): GET /api/sales/{id}/rescission and GET /api/sales/{id}/reschedule
 * (previews) and GET /api/sales/{id}/schedules (current and superseded schedules) for whoever sees
 * the sale (Ventas; 'Solo sus ventas' only their own: 403 on another's); POST
 * /api/sales/{id}/rescind needs 'Resolver contratos', POST /api/sales/{id}/reschedule 'Reprogramar
 * ventas', both within the same scope; GET /api/sales/{id}/rescission/letter and GET
 * /api/sales/{id}/reschedules/{reschedule_id}/adenda serve the issued letter and adenda PDFs to
 * whoever sees the sale.
 */
export function saleRescissionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const view = { access: RESERVATIONS_ACCESS };

    app.get(
      `${MAIN_BASE}/sales/:id/rescission`,
      { config: view, schema: { params: idParamsSchema, response: { 200: saleRescissionResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await saleRescission(deps, id) };
      },
    );

    app.post(
      `${MAIN_BASE}/sales/:id/rescind`,
      {
        config: { access: RESCIND_ACCESS },
        schema: { params: idParamsSchema, body: rescindSaleRequestSchema, response: { 200: saleResponseSchema } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await rescindSale(deps, auditContextOf(request, deps.clock), id, request.body) };
      },
    );

    app.get(
      `${MAIN_BASE}/sales/:id/reschedule`,
      {
        config: view,
        schema: { params: idParamsSchema, querystring: reschedulePreviewQuerySchema, response: { 200: reschedulePreviewResponseSchema } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await reschedulePreview(deps, id, request.query) };
      },
    );

    app.post(
      `${MAIN_BASE}/sales/:id/reschedule`,
      {
        config: { access: RESCHEDULE_ACCESS },
        schema: { params: idParamsSchema, body: rescheduleSaleRequestSchema, response: { 200: saleResponseSchema } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await rescheduleSale(deps, auditContextOf(request, deps.clock), id, request.body) };
      },
    );

    // The documents the two events generated (docs/domain.md "Rescission and rescheduling: their
    // documents"; docs/security.md 33.60): whoever sees the sale downloads them, without the
    // contracts screens' permissions; another's sale under 'Solo sus ventas' is a 403.
    app.get(`${MAIN_BASE}/sales/:id/rescission/letter`, { config: view, schema: { params: idParamsSchema } }, async (request, reply) => {
      const id = parseId(request.params.id);
      await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
      return sendPdf(reply, await saleLetterPdf(deps.db, id));
    });

    app.get(
      `${MAIN_BASE}/sales/:id/reschedules/:reschedule_id/adenda`,
      { config: view, schema: { params: adendaParamsSchema } },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const rescheduleId = parseId(request.params.reschedule_id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return sendPdf(reply, await saleAdendaPdf(deps.db, id, rescheduleId));
      },
    );

    app.get(
      `${MAIN_BASE}/sales/:id/schedules`,
      { config: view, schema: { params: idParamsSchema, response: { 200: saleSchedulesResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await saleSchedules(deps.db, id) };
      },
    );
  };
}
