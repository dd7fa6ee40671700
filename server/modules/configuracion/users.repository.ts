import { sql, type Kysely, type Updateable, type UpdateResult } from 'kysely';
import type { PageMeta } from '../../../src/schemas/paging';
import type { AccountStatus, DB, Instant, NewUser, UserRow, UsersTable } from '../../db/database';
import { paginate, parseSort } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { nextVersion } from '../../db/versions';

/** SQL of staff accounts (`users`, `user_roles`). E-mails are stored trimmed and lower-case. */

/** Normalises an e-mail for storage and comparison. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Inserts a staff user. @returns the new id. @throws on a duplicate DNI or e-mail (unique violation). */
export async function insertUser(db: Kysely<DB>, user: NewUser): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({ ...user, email: normalizeEmail(user.email) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The staff user whose DNI equals `login` or whose e-mail equals it case-insensitively (docs/product.md §7 row 2). */
export function findUserByLogin(db: Kysely<DB>, login: string): Promise<UserRow | undefined> {
  const value = login.trim();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('dni', '=', value), eb(sql<string>`lower(email)`, '=', normalizeEmail(value))]))
    .orderBy('id')
    .executeTakeFirst();
}

/** The staff user with this DNI. */
export function findUserByDni(db: Kysely<DB>, dni: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('dni', '=', dni.trim()).executeTakeFirst();
}

/** The staff user with this id. */
export function findUserById(db: Kysely<DB>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Replaces a staff user's password hash. */
export async function updateUserPassword(db: Kysely<DB>, id: number, passwordHash: string, at: Instant): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', id).execute();
}

/** Gives a staff user these roles (ids), keeping the ones already held. */
export async function assignRoles(db: Kysely<DB>, userId: number, roleIds: readonly number[]): Promise<void> {
  if (roleIds.length === 0) return;
  await db
    .insertInto('user_roles')
    .values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .execute();
}

/** Filters and paging of the users list (see `usersQuerySchema`). */
export interface UserListFilters {
  page: number;
  per_page: number;
  sort?: string;
  q?: string;
  status?: AccountStatus;
  role_id?: number;
}

/** One page of staff users (ids in order) and the total. `q` matches name, surname, DNI or e-mail. */
export async function listUserIds(db: Kysely<DB>, filters: UserListFilters): Promise<{ ids: number[]; meta: PageMeta }> {
  let query = db.selectFrom('users');
  if (filters.q) {
    const pattern = searchPattern(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb(searchTextOf(db, `users.name || ' ' || users.surname`), 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(users.email)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb('users.dni', 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (filters.status) query = query.where('users.status', '=', filters.status);
  if (filters.role_id !== undefined) {
    const roleId = filters.role_id;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.user_id')
          .whereRef('user_roles.user_id', '=', 'users.id')
          .where('user_roles.role_id', '=', roleId),
      ),
    );
  }
  const { field, direction } = parseSort<'name' | 'surname' | 'dni' | 'email' | 'created_at'>(filters.sort, 'surname');
  const page = await paginate(query, filters, (q) =>
    q.select('users.id').orderBy(`users.${field}`, direction).orderBy('users.id', direction),
  );
  return { ids: page.data.map((r) => r.id), meta: page.meta };
}

/** Roles and locals of these users, by user id. */
export async function rolesAndLocalsOf(
  db: Kysely<DB>,
  userIds: readonly number[],
): Promise<Map<number, { roles: { id: number; name: string }[]; locals: { id: number; name: string }[] }>> {
  const result = new Map(
    userIds.map((id) => [id, { roles: [] as { id: number; name: string }[], locals: [] as { id: number; name: string }[] }]),
  );
  if (userIds.length === 0) return result;
  const roles = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name'])
    .where('user_roles.user_id', 'in', [...userIds])
    .orderBy('roles.id')
    .execute();
  for (const r of roles) result.get(r.user_id)?.roles.push({ id: r.id, name: r.name });
  const locals = await db
    .selectFrom('user_locals')
    .innerJoin('locals', 'locals.id', 'user_locals.local_id')
    .select(['user_locals.user_id', 'locals.id', 'locals.name'])
    .where('user_locals.user_id', 'in', [...userIds])
    .orderBy('locals.id')
    .execute();
  for (const l of locals) result.get(l.user_id)?.locals.push({ id: l.id, name: l.name });
  return result;
}

/** Replaces a staff user's roles. */
export async function replaceRoles(db: Kysely<DB>, userId: number, roleIds: readonly number[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  await assignRoles(db, userId, roleIds);
}

/** Replaces the locals a staff user works at. */
export async function replaceLocals(db: Kysely<DB>, userId: number, localIds: readonly number[]): Promise<void> {
  await db.deleteFrom('user_locals').where('user_id', '=', userId).execute();
  if (localIds.length === 0) return;
  await db
    .insertInto('user_locals')
    .values(localIds.map((localId) => ({ user_id: userId, local_id: localId })))
    .execute();
}

/**
 * Updates a staff user's own columns and raises its `version` (server/db/versions.ts); with
 * `expectedVersion` only while the row still has that version.
 * @returns the UPDATE's result (0 rows: gone, or another edit came first — see assertVersionedUpdate).
 */
export async function updateUserColumns(
  db: Kysely<DB>,
  id: number,
  values: Updateable<UsersTable>,
  expectedVersion?: number,
): Promise<UpdateResult> {
  const set = values.email === undefined ? values : { ...values, email: normalizeEmail(values.email) };
  return db
    .updateTable('users')
    .set({ ...set, version: nextVersion() })
    .where('id', '=', id)
    .$if(expectedVersion !== undefined, (q) => q.where('version', '=', expectedVersion!))
    .executeTakeFirst();
}

/** Ids of the users holding any of `roleIds` (distinct). */
export async function holdersOfRoles(db: Kysely<DB>, roleIds: readonly number[]): Promise<number[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_roles')
    .select('user_id')
    .distinct()
    .where('role_id', 'in', [...roleIds])
    .execute();
  return rows.map((r) => r.user_id);
}

/** How many ACTIVO users hold the role named `roleName`. */
export async function countActiveHolders(db: Kysely<DB>, roleName: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select((eb) => eb.fn.count<number | string>('users.id').distinct().as('n'))
    .where('users.status', '=', 'ACTIVO')
    .where('roles.name', '=', roleName)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A user's row with its role and local ids (the change-history snapshot; secrets are stripped by the audit). */
export async function userSnapshot(db: Kysely<DB>, id: number): Promise<Record<string, unknown> | undefined> {
  const row = await findUserById(db, id);
  if (!row) return undefined;
  const roles = await db.selectFrom('user_roles').select('role_id').where('user_id', '=', id).orderBy('role_id').execute();
  const locals = await db.selectFrom('user_locals').select('local_id').where('user_id', '=', id).orderBy('local_id').execute();
  return { ...row, role_ids: roles.map((r) => r.role_id), local_ids: locals.map((l) => l.local_id) };
}

/** Which of `dni` / `email` another user (not `exceptId`) already has. */
export async function findUserConflicts(
  db: Kysely<DB>,
  values: { dni?: string; email?: string },
  exceptId?: number,
): Promise<{ dni: boolean; email: boolean }> {
  const result = { dni: false, email: false };
  if (values.dni !== undefined) {
    let q = db.selectFrom('users').select('id').where('dni', '=', values.dni);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    result.dni = (await q.executeTakeFirst()) !== undefined;
  }
  if (values.email !== undefined) {
    let q = db
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(email)`, '=', normalizeEmail(values.email));
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    result.email = (await q.executeTakeFirst()) !== undefined;
  }
  return result;
}
