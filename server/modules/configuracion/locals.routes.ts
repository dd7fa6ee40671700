import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createLocalRequestSchema,
  localResponseSchema,
  localsPageSchema,
  localsQuerySchema,
  updateLocalRequestSchema,
} from '../../../src/schemas/configuracion/company';
import { activeLocalsResponseSchema } from '../../../src/schemas/session';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE, PRIVATE_BASE } from '../../platform/bases';
import { COMPANY_ACCESS } from './companies.routes';
import { listActiveLocals } from './locals.repository';
import { createLocalRecord, getLocal, listLocalsPage, updateLocalRecord } from './locals.service';

/**
 * docs/product.md §7 row 9: GET /api/private/ver_locales_activos, no auth → `{message: [{id, name, address}]}`;
 * and Configuración → Empresas → Locales (permission as the company's): GET|POST /api/locals,
 * GET|PATCH /api/locals/{id}, POST /api/locals/{id}/activate | deactivate.
 */
export function localsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${PRIVATE_BASE}/ver_locales_activos`,
      { config: { access: 'public' }, schema: { response: { 200: activeLocalsResponseSchema } } },
      async () => ({ message: await listActiveLocals(deps.db) }),
    );

    const config = { access: COMPANY_ACCESS };
    app.get(
      `${MAIN_BASE}/locals`,
      { config, schema: { querystring: localsQuerySchema, response: { 200: localsPageSchema } } },
      async (request) => listLocalsPage(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/locals`,
      { config, schema: { body: createLocalRequestSchema, response: { 201: localResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createLocalRecord(deps, auditContextOf(request, deps.clock), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/locals/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: localResponseSchema } } },
      async (request) => ({
        data: await getLocal(deps.db, parseId(request.params.id)),
      }),
    );
    app.patch(
      `${MAIN_BASE}/locals/:id`,
      { config, schema: { params: idParamsSchema, body: updateLocalRequestSchema, response: { 200: localResponseSchema } } },
      async (request) => ({
        data: await updateLocalRecord(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    for (const [verb, active] of [
      ['activate', true],
      ['deactivate', false],
    ] as const) {
      app.post(
        `${MAIN_BASE}/locals/:id/${verb}`,
        { config, schema: { params: idParamsSchema, response: { 200: localResponseSchema } } },
        async (request) => ({
          data: await updateLocalRecord(deps, auditContextOf(request, deps.clock), parseId(request.params.id), { active }),
        }),
      );
    }
  };
}
