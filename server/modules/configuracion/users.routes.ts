import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../../src/schemas/common';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import {
  createUserRequestSchema,
  staffUserResponseSchema,
  updateUserRequestSchema,
  usersPageSchema,
  usersQuerySchema,
} from '../../../src/schemas/configuracion/users';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import {
  createUserAccount,
  getStaffUser,
  listStaffUsers,
  sendUserPasswordReset,
  setUserAccountStatus,
  updateUserAccount,
  USER_MESSAGES,
} from './users.service';

/** Who may manage staff users: 'Acceso módulo configuración' + 'Acceso submódulo usuarios'. */
export const USERS_ACCESS = staffWith(MODULE.configuracion, SUBMODULE.usuarios);

/**
 * Configuración → Usuarios: GET /api/users, POST /api/users, GET|PATCH /api/users/{id},
 * POST /api/users/{id}/deactivate | reactivate | send-password-reset. Every mutation writes its
 * change history in its transaction.
 */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: USERS_ACCESS };

    app.get(
      `${MAIN_BASE}/users`,
      { config, schema: { querystring: usersQuerySchema, response: { 200: usersPageSchema } } },
      async (request) => listStaffUsers(deps.db, request.query),
    );

    app.post(
      `${MAIN_BASE}/users`,
      { config, schema: { body: createUserRequestSchema, response: { 201: staffUserResponseSchema } } },
      async (request, reply) => {
        const data = await createUserAccount(deps, auditContextOf(request, deps.clock), request.body);
        return reply.status(201).send({ data });
      },
    );

    app.get(
      `${MAIN_BASE}/users/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: staffUserResponseSchema } } },
      async (request) => ({ data: await getStaffUser(deps.db, parseId(request.params.id)) }),
    );

    app.patch(
      `${MAIN_BASE}/users/:id`,
      { config, schema: { params: idParamsSchema, body: updateUserRequestSchema, response: { 200: staffUserResponseSchema } } },
      async (request) => ({
        data: await updateUserAccount(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    for (const [verb, status] of [
      ['deactivate', 'INACTIVO'],
      ['reactivate', 'ACTIVO'],
    ] as const) {
      app.post(
        `${MAIN_BASE}/users/:id/${verb}`,
        { config, schema: { params: idParamsSchema, response: { 200: staffUserResponseSchema } } },
        async (request) => ({
          data: await setUserAccountStatus(deps, auditContextOf(request, deps.clock), parseId(request.params.id), status),
        }),
      );
    }

    app.post(
      `${MAIN_BASE}/users/:id/send-password-reset`,
      { config, schema: { params: idParamsSchema, response: { 200: messageResponseSchema } } },
      async (request) => {
        await sendUserPasswordReset(deps, parseId(request.params.id));
        return { message: USER_MESSAGES.resetSent };
      },
    );
  };
}
