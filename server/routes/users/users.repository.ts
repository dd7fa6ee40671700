import { sql, type Kysely } from 'kysely';
import type { DB, Instant, NewUser, UserRow } from '../../db/database';

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

/** The staff user whose DNI equals `login` or whose e-mail equals it case-insensitively (SPEC §7 row 2). */
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
