import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { roleNamesResponseSchema, rolePermissionsResponseSchema } from '../../../src/schemas/session';
import type { AppDeps } from '../../context';
import { ANY_ACCOUNT, requireAuth } from '../../auth/guard';
import { accountAccess } from '../../auth/accounts';
import { MAIN_BASE, PRIVATE_BASE } from '../../platform/bases';
import { listRoles } from './roles.repository';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import {
  copyRoleRequestSchema,
  createRoleRequestSchema,
  roleResponseSchema,
  rolesPageSchema,
  rolesQuerySchema,
  updateRoleRequestSchema,
} from '../../../src/schemas/configuracion/roles';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import { parseId } from '../../errors';
import { copyRoleRecord, createRoleRecord, deleteRoleRecord, getRole, listRolesPage, updateRoleRecord } from './roles.service';

/** Who may manage roles: 'Acceso módulo configuración' + 'Acceso submódulo roles y permisos'. */
export const ROLES_ACCESS = staffWith(MODULE.configuracion, SUBMODULE.roles);

/**
 * docs/product.md §7 rows 10 (role names) and 11 (the caller's permissions), both bearer on the private base;
 * and Configuración → Roles y permisos: GET|POST /api/roles, GET|PATCH|DELETE /api/roles/{id},
 * POST /api/roles/{id}/copy (every mutation writes change history in its transaction).
 */
export function rolesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Row 10: staff see every role as parallel lists ordered by id; customers get empty lists.
    app.get(
      `${PRIVATE_BASE}/roles_name`,
      { config: { access: ANY_ACCOUNT }, schema: { response: { 200: roleNamesResponseSchema } } },
      async (request) => {
        const roles = requireAuth(request).userType === 'COLLABORATOR' ? await listRoles(deps.db) : [];
        return { message: roles.map((r) => r.name), id: roles.map((r) => r.id) };
      },
    );

    // Row 11: the caller's own permission strings (docs/product.md §6).
    app.get(
      `${PRIVATE_BASE}/api/roles_permissions`,
      { config: { access: ANY_ACCOUNT }, schema: { response: { 200: rolePermissionsResponseSchema } } },
      async (request) => {
        const auth = requireAuth(request);
        const { permissions } = await accountAccess(deps.db, auth.userType, auth.accountId);
        return { permissions };
      },
    );

    const config = { access: ROLES_ACCESS };
    app.get(
      `${MAIN_BASE}/roles`,
      { config, schema: { querystring: rolesQuerySchema, response: { 200: rolesPageSchema } } },
      async (request) => listRolesPage(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/roles`,
      { config, schema: { body: createRoleRequestSchema, response: { 201: roleResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createRoleRecord(deps, auditContextOf(request, deps.clock), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/roles/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: roleResponseSchema } } },
      async (request) => ({
        data: await getRole(deps.db, parseId(request.params.id)),
      }),
    );
    app.patch(
      `${MAIN_BASE}/roles/:id`,
      { config, schema: { params: idParamsSchema, body: updateRoleRequestSchema, response: { 200: roleResponseSchema } } },
      async (request) => ({
        data: await updateRoleRecord(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.post(
      `${MAIN_BASE}/roles/:id/copy`,
      { config, schema: { params: idParamsSchema, body: copyRoleRequestSchema, response: { 201: roleResponseSchema } } },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await copyRoleRecord(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body.name) }),
    );
    app.delete(`${MAIN_BASE}/roles/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteRoleRecord(deps, auditContextOf(request, deps.clock), parseId(request.params.id));
      return reply.status(204).send();
    });
  };
}
