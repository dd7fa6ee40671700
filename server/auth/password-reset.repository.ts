import type { Kysely, Selectable } from 'kysely';
import type { AccountType, DB, Instant, PasswordResetsTable } from '../db/database';

/** SQL of `password_resets` (single-use links; only the token's SHA-256 is stored). */

/** A stored reset link. */
export type PasswordResetRow = Selectable<PasswordResetsTable>;

/** Stores a reset link. @returns its id. */
export async function insertPasswordReset(
  db: Kysely<DB>,
  row: { tokenHash: string; userType: AccountType; accountId: number; expiresAt: Instant; createdAt: Instant },
): Promise<number> {
  const { id } = await db
    .insertInto('password_resets')
    .values({
      token_hash: row.tokenHash,
      user_type: row.userType,
      account_id: row.accountId,
      expires_at: row.expiresAt,
      created_at: row.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The unused, unexpired reset link with this hash for this account type. */
export function findUsablePasswordReset(
  db: Kysely<DB>,
  tokenHash: string,
  userType: AccountType,
  now: Instant,
): Promise<PasswordResetRow | undefined> {
  return db
    .selectFrom('password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('user_type', '=', userType)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Marks one link used, only if it still is unused (two concurrent resets cannot both win).
 * @returns true when this call consumed it.
 */
export async function markPasswordResetUsed(db: Kysely<DB>, id: number, at: Instant): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks every unused link of the account as used (older links die once the password changed).
 * @returns how many rows changed.
 */
export async function consumeAccountPasswordResets(
  db: Kysely<DB>,
  owner: { userType: AccountType; accountId: number },
  at: Instant,
): Promise<number> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('user_type', '=', owner.userType)
    .where('account_id', '=', owner.accountId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
