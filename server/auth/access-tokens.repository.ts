import type { Kysely, Selectable } from 'kysely';
import type { AccessTokensTable, AccountType, DB, Instant } from '../db/database';

/** SQL of the `access_tokens` table (bearer sessions). */

/** A stored access token. */
export type AccessTokenRow = Selectable<AccessTokensTable>;

/** Stores a new token hash. @returns the row id. */
export async function insertAccessToken(
  db: Kysely<DB>,
  row: { tokenHash: string; userType: AccountType; accountId: number; createdAt: Instant; expiresAt: Instant },
): Promise<number> {
  const { id } = await db
    .insertInto('access_tokens')
    .values({
      token_hash: row.tokenHash,
      user_type: row.userType,
      account_id: row.accountId,
      created_at: row.createdAt,
      last_used_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The token with this hash, revoked or not. */
export function findAccessTokenByHash(db: Kysely<DB>, tokenHash: string): Promise<AccessTokenRow | undefined> {
  return db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Records a use of the token (sliding idle expiry). */
export async function touchAccessToken(db: Kysely<DB>, id: number, at: Instant): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Revokes one token (logout). */
export async function revokeAccessTokenById(db: Kysely<DB>, id: number, at: Instant): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * Revokes every live token of an account, except `exceptId` when given (password change keeps
 * the caller's own session). @returns how many tokens were revoked.
 */
export async function revokeAccessTokensOfAccount(
  db: Kysely<DB>,
  account: { userType: AccountType; accountId: number },
  at: Instant,
  exceptId?: number,
): Promise<number> {
  let query = db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('user_type', '=', account.userType)
    .where('account_id', '=', account.accountId)
    .where('revoked_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
