import type { Kysely } from 'kysely';
import type { Role, RolesQuery } from '../../../src/schemas/configuracion/roles';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { isUniqueViolation } from '../../db/portable';
import { conflict, fieldError, notFound } from '../../errors';
import { holdersOfRoles } from './users.repository';
import { ADMIN_ROLE_NAME } from './users.service';
import { permissionsChangedEvents } from './permissions-events';
import { deleteRole, findRoleByName, insertRole, listRoleIds, replaceRolePermissions, roleDetails, touchRole } from './roles.repository';
import { assertVersionedUpdate } from '../../db/versions';

/** Configuración → Roles y permisos. */

/** Spanish messages of the roles screen. */
export const ROLE_MESSAGES = {
  duplicateName: 'Ya existe un rol con ese nombre',
  held: 'No se puede eliminar un rol asignado a usuarios',
  adminLocked: 'El rol Administrador no se puede renombrar, modificar ni eliminar',
} as const;

/** One page of roles with permissions and holder counts. */
export async function listRolesPage(db: Kysely<DB>, query: RolesQuery): Promise<Page<Role>> {
  const { ids, meta } = await listRoleIds(db, query);
  return { data: await roleDetails(db, ids), meta };
}

/** One role. @throws HttpError 404. */
export async function getRole(db: Kysely<DB>, id: number): Promise<Role> {
  const [role] = await roleDetails(db, [id]);
  if (!role) throw notFound();
  return role;
}

/** The change-history snapshot of a role. */
async function snapshot(trx: Kysely<DB>, id: number): Promise<Record<string, unknown> | null> {
  const [role] = await roleDetails(trx, [id]);
  return role ? { id: role.id, name: role.name, permissions: role.permissions } : null;
}

/** Runs `fn` in a transaction; a duplicate name (checked first, or a lost race) is a 422 on `name`. */
async function withUniqueName<T>(
  db: Kysely<DB>,
  name: string | undefined,
  exceptId: number | undefined,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (name !== undefined) {
    const existing = await findRoleByName(db, name);
    if (existing && existing.id !== exceptId) throw fieldError('name', ROLE_MESSAGES.duplicateName);
  }
  try {
    return await db.transaction().execute(fn);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', ROLE_MESSAGES.duplicateName);
    throw error;
  }
}

/** Creates a role (POST /api/roles). @throws HttpError 422 on a duplicate name. */
export async function createRoleRecord(deps: AppDeps, audit: AuditContext, body: { name: string; permissions: string[] }): Promise<Role> {
  const id = await withUniqueName(deps.db, body.name, undefined, async (trx) => {
    const roleId = await insertRole(trx, body.name, body.permissions);
    await recordChange(trx, audit, { entity: 'roles', recordId: roleId, action: 'CREATE', after: await snapshot(trx, roleId) });
    return roleId;
  });
  return getRole(deps.db, id);
}

/** Copies a role's permissions under a new name (POST /api/roles/{id}/copy). @throws HttpError 404; 422 on a duplicate name. */
export async function copyRoleRecord(deps: AppDeps, audit: AuditContext, id: number, name: string): Promise<Role> {
  const source = await getRole(deps.db, id);
  return createRoleRecord(deps, audit, { name, permissions: source.permissions });
}

/**
 * Renames a role and/or replaces its permissions (PATCH /api/roles/{id}). Holders get the change on
 * their next request (the guard reads permissions per request) and a `PermissionsChangedEvent`.
 * With `version`, only that version of the role is changed (server/db/versions.ts).
 * @throws HttpError 404; 409 for the Administrador role or a role changed since `version`
 *   (STALE_RECORD_MESSAGE, nothing stored); 422 on a duplicate name.
 */
export async function updateRoleRecord(
  deps: AppDeps,
  audit: AuditContext,
  id: number,
  body: { name?: string; permissions?: string[]; version?: number },
): Promise<Role> {
  const current = await getRole(deps.db, id);
  if (current.name === ADMIN_ROLE_NAME) throw conflict(ROLE_MESSAGES.adminLocked);
  const holders = await withUniqueName(deps.db, body.name, id, async (trx) => {
    const before = await snapshot(trx, id);
    await assertVersionedUpdate(trx, 'roles', id, await touchRole(trx, id, { name: body.name }, body.version), notFound);
    if (body.permissions !== undefined) await replaceRolePermissions(trx, id, body.permissions);
    const after = await snapshot(trx, id);
    await recordChange(trx, audit, { entity: 'roles', recordId: id, action: 'UPDATE', before, after });
    return JSON.stringify(before?.permissions) === JSON.stringify(after?.permissions) ? [] : holdersOfRoles(trx, [id]);
  });
  deps.broadcaster.publish(permissionsChangedEvents(holders, deps.clock));
  return getRole(deps.db, id);
}

/** Deletes a role nobody holds (DELETE /api/roles/{id}). @throws HttpError 404; 409 when held or the Administrador role. */
export async function deleteRoleRecord(deps: AppDeps, audit: AuditContext, id: number): Promise<void> {
  const current = await getRole(deps.db, id);
  if (current.name === ADMIN_ROLE_NAME) throw conflict(ROLE_MESSAGES.adminLocked);
  await deps.db.transaction().execute(async (trx) => {
    if ((await holdersOfRoles(trx, [id])).length > 0) throw conflict(ROLE_MESSAGES.held);
    const before = await snapshot(trx, id);
    await deleteRole(trx, id);
    await recordChange(trx, audit, { entity: 'roles', recordId: id, action: 'DELETE', before });
  });
}
