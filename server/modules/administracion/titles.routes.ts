import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPublicHolidayRequestSchema,
  createTitleProcessRequestSchema,
  publicHolidayResponseSchema,
  publicHolidaysPageSchema,
  publicHolidaysQuerySchema,
  titleBoardQuerySchema,
  titleBoardResponseSchema,
  titleProcessResponseSchema,
  titleProcessesPageSchema,
  titleProcessesQuerySchema,
  titleTransitionRequestSchema,
  updatePublicHolidayRequestSchema,
  updateTitleProcessRequestSchema,
} from '../../../src/schemas/administracion/titles';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith, staffWithAnyOf } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { createPublicHoliday, deletePublicHoliday, listPublicHolidays, updatePublicHoliday } from './public-holidays.service';
import {
  createTitleProcess,
  getTitleProcess,
  listTitleProcesses,
  titleBoard,
  transitionTitleProcess,
  updateTitleProcess,
} from './titles.service';

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
 * /api/title-processes/{id}, POST /api/title-processes/{id}/transition; and the public holidays of
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
