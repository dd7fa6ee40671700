import { sql, type Kysely, type UpdateResult } from 'kysely';
import type { PageMeta } from '../../../src/schemas/paging';
import type { DB } from '../../db/database';
import { paginate, parseSort } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { nextVersion } from '../../db/versions';

/** SQL of roles and their permissions (`roles`, `role_permissions`, `user_roles`). */

/** A role as call 10 lists it. */
export interface RoleSummary {
  id: number;
  name: string;
}

/** Every role, ordered by id (docs/product.md §7 row 10). */
export function listRoles(db: Kysely<DB>): Promise<RoleSummary[]> {
  return db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
}

/** The role with this name. */
export function findRoleByName(db: Kysely<DB>, name: string): Promise<RoleSummary | undefined> {
  return db.selectFrom('roles').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

/**
 * Creates a role with its permission strings (docs/product.md §6). Run it inside a transaction when it must
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

/**
 * Which of `among` a staff user's roles grant (the guard's check: only the permissions a route
 * names are read, not the user's whole list). `among` must not be empty.
 */
export async function permissionsOfUserAmong(db: Kysely<DB>, userId: number, among: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select('role_permissions.permission')
    .where('user_roles.user_id', '=', userId)
    .where('role_permissions.permission', 'in', among)
    .execute();
  return new Set(rows.map((r) => r.permission));
}

/** Filters and paging of the roles list. */
export interface RoleListFilters {
  page: number;
  per_page: number;
  sort?: string;
  q?: string;
}

/** A role's name, sorted permissions and holder count (GET /api/roles). */
export interface RoleDetail {
  id: number;
  name: string;
  permissions: string[];
  holders: number;
  /** Edit counter (server/db/versions.ts). */
  version: number;
}

/** Roles by id with permissions and holder counts, in the order of `ids`. */
export async function roleDetails(db: Kysely<DB>, ids: readonly number[]): Promise<RoleDetail[]> {
  if (ids.length === 0) return [];
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'name', 'version'])
    .where('id', 'in', [...ids])
    .execute();
  const permissions = await db
    .selectFrom('role_permissions')
    .select(['role_id', 'permission'])
    .where('role_id', 'in', [...ids])
    .orderBy('permission')
    .execute();
  const holders = await db
    .selectFrom('user_roles')
    .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('role_id', 'in', [...ids])
    .groupBy('role_id')
    .execute();
  const byId = new Map(roles.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const role = byId.get(id);
    if (!role) return [];
    return [
      {
        id,
        name: role.name,
        permissions: permissions.filter((p) => p.role_id === id).map((p) => p.permission),
        holders: Number(holders.find((h) => h.role_id === id)?.n ?? 0),
        version: role.version,
      },
    ];
  });
}

/** One page of role ids (name search with `q`). */
export async function listRoleIds(db: Kysely<DB>, filters: RoleListFilters): Promise<{ ids: number[]; meta: PageMeta }> {
  let query = db.selectFrom('roles');
  if (filters.q) query = query.where(searchTextOf(db, 'roles.name'), 'like', sql<string>`${searchPattern(filters.q)} escape '\\'`);
  const { field, direction } = parseSort<'name' | 'id'>(filters.sort, 'id');
  const page = await paginate(query, filters, (q) =>
    q.select('roles.id').orderBy(`roles.${field}`, direction).orderBy('roles.id', direction),
  );
  return { ids: page.data.map((r) => r.id), meta: page.meta };
}

/**
 * Raises a role's `version` and, with `name`, renames it; with `expectedVersion` only while the
 * row still has that version (server/db/versions.ts). Every change of the role (its permissions
 * too) goes through here first.
 * @returns the UPDATE's result (0 rows: gone, or another edit came first).
 */
export function touchRole(db: Kysely<DB>, id: number, changes: { name?: string }, expectedVersion?: number): Promise<UpdateResult> {
  return db
    .updateTable('roles')
    .set({ ...(changes.name === undefined ? {} : { name: changes.name }), version: nextVersion() })
    .where('id', '=', id)
    .$if(expectedVersion !== undefined, (q) => q.where('version', '=', expectedVersion!))
    .executeTakeFirst();
}

/** Replaces a role's permission list. */
export async function replaceRolePermissions(db: Kysely<DB>, id: number, permissions: readonly string[]): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', id).execute();
  const unique = [...new Set(permissions)];
  if (unique.length > 0)
    await db
      .insertInto('role_permissions')
      .values(unique.map((permission) => ({ role_id: id, permission })))
      .execute();
}

/** Deletes a role nobody holds (its permissions go with it). */
export async function deleteRole(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', id).execute();
  await db.deleteFrom('roles').where('id', '=', id).execute();
}
