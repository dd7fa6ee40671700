import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';

/** SQL of roles and their permissions (`roles`, `role_permissions`, `user_roles`). */

/** A role as call 10 lists it. */
export interface RoleSummary {
  id: number;
  name: string;
}

/** Every role, ordered by id (SPEC §7 row 10). */
export function listRoles(db: Kysely<DB>): Promise<RoleSummary[]> {
  return db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
}

/** The role with this name. */
export function findRoleByName(db: Kysely<DB>, name: string): Promise<RoleSummary | undefined> {
  return db.selectFrom('roles').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

/**
 * Creates a role with its permission strings (SPEC §6). Run it inside a transaction when it must
 * be atomic with other writes (seed, fixtures).
 * @returns the new role id. @throws on a duplicate name.
 */
export async function insertRole(db: Kysely<DB>, name: string, permissions: readonly string[]): Promise<number> {
  const { id } = await db.insertInto('roles').values({ name }).returning('id').executeTakeFirstOrThrow();
  const unique = [...new Set(permissions)];
  if (unique.length > 0) {
    await db
      .insertInto('role_permissions')
      .values(unique.map((permission) => ({ role_id: id, permission })))
      .execute();
  }
  return id;
}

/** Names of a staff user's roles, ordered by role id. */
export async function roleNamesOfUser(db: Kysely<DB>, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.name')
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.id')
    .execute();
  return rows.map((r) => r.name);
}

/** The union of the permissions of a staff user's roles, sorted. */
export async function permissionsOfUser(db: Kysely<DB>, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select('role_permissions.permission')
    .distinct()
    .where('user_roles.user_id', '=', userId)
    .orderBy('role_permissions.permission')
    .execute();
  return rows.map((r) => r.permission);
}
