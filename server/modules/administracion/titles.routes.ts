import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DELIVERY_RECORD_MAX_BYTES,
  TITLE_MESSAGES,
  createPublicHolidayRequestSchema,
  createTitleProcessRequestSchema,
  lotTitleStatesResponseSchema,
  publicHolidayResponseSchema,
  publicHolidaysPageSchema,
  publicHolidaysQuerySchema,
  titleBoardQuerySchema,
  titleBoardResponseSchema,
  titleProcessResponseSchema,
  titleProcessesPageSchema,
  titleProcessesQuerySchema,
  titleSaleOptionsQuerySchema,
  titleSaleOptionsResponseSchema,
  titleTransitionRequestSchema,
  updatePublicHolidayRequestSchema,
  updateTitleProcessRequestSchema,
} from '../../../src/schemas/administracion/titles';
import { idParamsSchema } from '../../../src/schemas/params';
import { subdivisionKeyParamsSchema } from '../../../src/schemas/proyectos/projects';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith, staffWithAnyOf } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, parseId } from '../../errors';
import { uploadError } from '../../uploads';
import { MAIN_BASE } from '../../platform/bases';
import { subdivisionNotFound } from '../proyectos/subdivisions.service';
import { createPublicHoliday, deletePublicHoliday, listPublicHolidays, updatePublicHoliday } from './public-holidays.service';
import {
  createTitleProcess,
  getTitleProcess,
  listTitleProcesses,
  lotTitleStates,
  readDeliveryRecord,
  titleBoard,
  titleSaleOptions,
  transitionTitleProcess,
  updateTitleProcess,
  uploadDeliveryRecord,
} from './titles.service';

/**
 * Reads the one multipart file part `file` (≤ {@link DELIVERY_RECORD_MAX_BYTES}) of a request.
 * @throws HttpError 422 on `file` (missing, too large, malformed body).
 */
async function readDeliveryUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file({ limits: { fileSize: DELIVERY_RECORD_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    if (!file || file.fieldname !== 'file') throw fieldError('file', TITLE_MESSAGES.deliveryRecordMissing);
    return await file.toBuffer();
  } catch (error) {
    throw uploadError(error, 'file', { missing: TITLE_MESSAGES.deliveryRecordMissing, tooLarge: TITLE_MESSAGES.deliveryRecordTooLarge });
  }
}

/** Administración → Registros de partidas y títulos: 'Acceso módulo administración' + 'Acceso submódulo registros de partidas y títulos'. */
export const TITLES_ACCESS = staffWith(MODULE.administracion, SUBMODULE.partidasTitulos);
/** Editing the public holidays: the installation's settings, Configuración → Empresas (the administrator). */
export const HOLIDAYS_EDIT_ACCESS = staffWith(MODULE.configuracion, SUBMODULE.empresas);
/** Reading the public holidays: who works with titles, or who edits the holidays. */
export const HOLIDAYS_READ_ACCESS = staffWithAnyOf(
  [MODULE.administracion, SUBMODULE.partidasTitulos],
  [MODULE.configuracion, SUBMODULE.empresas],
);

/**
 * Titles at SUNARP (docs/domain.md "Titles at SUNARP"; src/schemas/administracion/titles.ts):
 * GET/POST /api/title-processes, GET /api/title-processes/board, GET/PATCH
 * /api/title-processes/{id}, POST /api/title-processes/{id}/transition, GET
 * /api/title-processes/sale-options (the sales "Nuevo trámite" may pick), POST|GET
 * /api/title-processes/{id}/delivery-record (the acta de entrega, multipart `file`); GET
 * /api/subdivisions/{key}/title-states (the heat map's "Estado del título": the same permission as
 * the processes, never kept between calls); and the public holidays of
 * the working days, GET/POST /api/public-holidays, PATCH/DELETE /api/public-holidays/{id}.
 */
export function titlesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: TITLES_ACCESS };

    app.get(
      `${MAIN_BASE}/title-processes`,
      { config, schema: { querystring: titleProcessesQuerySchema, response: { 200: titleProcessesPageSchema } } },
      async (request) => listTitleProcesses(deps, request.query),
    );

    app.get(
      `${MAIN_BASE}/title-processes/board`,
      { config, schema: { querystring: titleBoardQuerySchema, response: { 200: titleBoardResponseSchema } } },
      async (request) => ({ data: await titleBoard(deps, request.query) }),
    );

    app.get(
      `${MAIN_BASE}/title-processes/sale-options`,
      { config, schema: { querystring: titleSaleOptionsQuerySchema, response: { 200: titleSaleOptionsResponseSchema } } },
      async (request) => ({ data: await titleSaleOptions(deps.db, request.query) }),
    );

    app.get(
      `${MAIN_BASE}/subdivisions/:key/title-states`,
      { config, schema: { params: subdivisionKeyParamsSchema, response: { 200: lotTitleStatesResponseSchema } } },
      async (request) => {
        const id = deps.ids.decode(request.params.key);
        if (id === null) throw subdivisionNotFound();
        const exists = await deps.db.selectFrom('subdivisions').select('id').where('id', '=', id).executeTakeFirst();
        if (!exists) throw subdivisionNotFound();
        return { data: await lotTitleStates(deps.db, id) };
      },
    );

    app.post(
      `${MAIN_BASE}/title-processes/:id/delivery-record`,
      { config, schema: { params: idParamsSchema, response: { 200: titleProcessResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        const bytes = await readDeliveryUpload(request);
        return { data: await uploadDeliveryRecord(deps, auditContextOf(request, deps.clock), id, bytes) };
      },
    );

    app.get(`${MAIN_BASE}/title-processes/:id/delivery-record`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      const record = await readDeliveryRecord(deps.db, parseId(request.params.id));
      return reply
        .header('content-type', record.contentType)
        .header('content-disposition', `attachment; filename="${record.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(record.data);
    });

    app.post(
      `${MAIN_BASE}/title-processes`,
      { config, schema: { body: createTitleProcessRequestSchema, response: { 201: titleProcessResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createTitleProcess(deps, auditContextOf(request, deps.clock), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/title-processes/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: titleProcessResponseSchema } } },
      async (request) => ({ data: await getTitleProcess(deps, parseId(request.params.id)) }),
    );

    app.patch(
      `${MAIN_BASE}/title-processes/:id`,
      { config, schema: { params: idParamsSchema, body: updateTitleProcessRequestSchema, response: { 200: titleProcessResponseSchema } } },
      async (request) => ({
        data: await updateTitleProcess(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.post(
      `${MAIN_BASE}/title-processes/:id/transition`,
      { config, schema: { params: idParamsSchema, body: titleTransitionRequestSchema, response: { 200: titleProcessResponseSchema } } },
      async (request) => ({
        data: await transitionTitleProcess(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.get(
      `${MAIN_BASE}/public-holidays`,
      {
        config: { access: HOLIDAYS_READ_ACCESS },
        schema: { querystring: publicHolidaysQuerySchema, response: { 200: publicHolidaysPageSchema } },
      },
      async (request) => listPublicHolidays(deps.db, request.query),
    );

    app.post(
      `${MAIN_BASE}/public-holidays`,
      {
        config: { access: HOLIDAYS_EDIT_ACCESS },
        schema: { body: createPublicHolidayRequestSchema, response: { 201: publicHolidayResponseSchema } },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await createPublicHoliday(deps, auditContextOf(request, deps.clock), request.body) }),
    );

    app.patch(
      `${MAIN_BASE}/public-holidays/:id`,
      {
        config: { access: HOLIDAYS_EDIT_ACCESS },
        schema: { params: idParamsSchema, body: updatePublicHolidayRequestSchema, response: { 200: publicHolidayResponseSchema } },
      },
      async (request) => ({
        data: await updatePublicHoliday(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.delete(
      `${MAIN_BASE}/public-holidays/:id`,
      { config: { access: HOLIDAYS_EDIT_ACCESS }, schema: { params: idParamsSchema } },
      async (request, reply) => {
        await deletePublicHoliday(deps, auditContextOf(request, deps.clock), parseId(request.params.id));
        return reply.status(204).send();
      },
    );
  };
}
