import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { roleNamesResponseSchema, rolePermissionsResponseSchema } from '../../../src/schemas/session';
import type { AppDeps } from '../../context';
import { ANY_ACCOUNT, requireAuth } from '../../auth/guard';
import { accountAccess } from '../../auth/accounts';
import { PRIVATE_BASE } from '../bases';
import { listRoles } from './roles.repository';

/** SPEC §7 rows 10 (role names) and 11 (the caller's permissions), both bearer on the private base. */
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

    // Row 11: the caller's own permission strings (SPEC §6).
    app.get(
      `${PRIVATE_BASE}/api/roles_permissions`,
      { config: { access: ANY_ACCOUNT }, schema: { response: { 200: rolePermissionsResponseSchema } } },
      async (request) => {
        const auth = requireAuth(request);
        const { permissions } = await accountAccess(deps.db, auth.userType, auth.accountId);
        return { permissions };
      },
    );
  };
}
