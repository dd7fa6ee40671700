import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import { DAY_MS, HOUR_MS, type Clock } from '../clock';
import type { AccountType, DB } from '../db/database';
import {
  findAccessTokenByHash,
  insertAccessToken,
  revokeAccessTokenById,
  revokeAccessTokensOfAccount,
  touchAccessToken,
} from './access-tokens.repository';

/**
 * Opaque bearer tokens (docs/architecture.md): 32 random bytes as 64 hex characters;
 * only their SHA-256 is stored. A token dies after TOKEN_IDLE_HOURS without use (sliding on
 * `last_used_at`), TOKEN_ABSOLUTE_DAYS after login, at logout, or when the account's password
 * changes.
 */

/** A freshly generated secret and the hash that is stored. */
export interface GeneratedSecret {
  raw: string;
  hash: string;
}

/** SHA-256 hex of a token (access tokens and reset links). */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** 32 random bytes as hex, plus its hash. */
export function generateSecret(): GeneratedSecret {
  const raw = randomBytes(32).toString('hex');
  return { raw, hash: hashToken(raw) };
}

/** The account a token belongs to. */
export interface TokenOwner {
  userType: AccountType;
  accountId: number;
}

/** A valid token resolved from a request. */
export interface ResolvedToken extends TokenOwner {
  tokenId: number;
}

/** What token functions need: the database, the clock and the expiry settings. */
export interface TokenDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<AppConfig, 'tokenIdleHours' | 'tokenAbsoluteDays'>;
}

/** Issues a token for an account (login). @returns the raw token (shown once, never stored). */
export async function issueAccessToken(deps: TokenDeps, owner: TokenOwner): Promise<string> {
  const { raw } = generateSecret();
  await storeAccessToken(deps, owner, raw);
  return raw;
}

/**
 * Stores the hash of a given raw token for an account, with the configured absolute expiry.
 * Login goes through {@link issueAccessToken}; fixtures use this to honour tokens promised by
 * contract provider states.
 */
export async function storeAccessToken({ db, clock, config }: TokenDeps, owner: TokenOwner, raw: string): Promise<void> {
  const now = clock.now();
  await insertAccessToken(db, {
    tokenHash: hashToken(raw),
    userType: owner.userType,
    accountId: owner.accountId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + config.tokenAbsoluteDays * DAY_MS).toISOString(),
  });
}

/**
 * Resolves a raw token. Valid tokens slide their idle expiry.
 * @returns null when unknown, revoked, past its absolute expiry or idle too long.
 */
export async function resolveAccessToken({ db, clock, config }: TokenDeps, raw: string): Promise<ResolvedToken | null> {
  if (!/^[0-9a-f]{64}$/.test(raw)) return null;
  const row = await findAccessTokenByHash(db, hashToken(raw));
  if (!row || row.revoked_at !== null) return null;
  const now = clock.now();
  const idleLimit = new Date(row.last_used_at).getTime() + config.tokenIdleHours * HOUR_MS;
  if (now.getTime() >= new Date(row.expires_at).getTime() || now.getTime() >= idleLimit) return null;
  await touchAccessToken(db, row.id, now.toISOString());
  return { tokenId: row.id, userType: row.user_type, accountId: row.account_id };
}

/** Revokes one token (docs/product.md §7 row 7, logout). */
export function revokeAccessToken({ db, clock }: Pick<TokenDeps, 'db' | 'clock'>, tokenId: number): Promise<void> {
  return revokeAccessTokenById(db, tokenId, clock.now().toISOString());
}

/**
 * Revokes every session of an account (password reset), or every other one when `exceptTokenId`
 * is given (password change keeps the current session). @returns how many were revoked.
 */
export function revokeAccountSessions(
  { db, clock }: Pick<TokenDeps, 'db' | 'clock'>,
  owner: TokenOwner,
  exceptTokenId?: number,
): Promise<number> {
  return revokeAccessTokensOfAccount(db, owner, clock.now().toISOString(), exceptTokenId);
}
