import type { Kysely } from 'kysely';
import type { AccountStatus, AccountType, DB, Instant } from '../db/database';
import { subscriptionFlag } from '../modules/configuracion/companies.repository';

/** SQL of the `access_tokens` table (bearer sessions). */

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

/**
 * The token with this hash (revoked or not) and, read with it in one statement, what the guard
 * checks on every request (server/auth/guard.ts): its account's status (null when the account is
 * gone) and the installation's subscription flag (null without a company row).
 */
export function findSessionByHash(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('access_tokens as t')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 't.account_id').on('t.user_type', '=', 'COLLABORATOR'))
    .leftJoin('customers as c', (join) => join.onRef('c.id', '=', 't.account_id').on('t.user_type', '=', 'CUSTOMER'))
    .select((eb) => [
      't.id',
      't.user_type',
      't.account_id',
      't.last_used_at',
      't.expires_at',
      't.revoked_at',
      eb.fn.coalesce('u.status', 'c.status').$castTo<AccountStatus | null>().as('account_status'),
      subscriptionFlag(db).as('subscription_active'),
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
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
