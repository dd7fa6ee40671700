import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import { DAY_MS, HOUR_MS, type Clock } from '../clock';
import type { AccountType, DB } from '../db/database';
import { fromFlag } from '../db/portable';
import {
  findSessionByHash,
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
 * How often a token's `last_used_at` is written: at most once per minute of use. The idle expiry
 * (TOKEN_IDLE_HOURS) is counted in hours, so a minute's slack in it changes nothing a user sees,
 * and the guard stops writing to the database on every authenticated request (issue "API
 * throughput"; docs/decisions.md "The guard reads once and writes once a minute").
 */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/** A valid token with what every authenticated request checks beside it (server/auth/guard.ts). */
export interface ResolvedSession {
  token: ResolvedToken;
  /** The account exists and is ACTIVO. */
  accountActive: boolean;
  /** The company's subscription is active (true when there is no company row yet). */
  subscriptionActive: boolean;
}

/**
 * Resolves a raw token, its account's status and the subscription flag in one statement. Valid
 * tokens slide their idle expiry (written at most every {@link TOKEN_TOUCH_INTERVAL_MS}).
 * @returns null when unknown, revoked, past its absolute expiry or idle too long.
 */
export async function resolveSession({ db, clock, config }: TokenDeps, raw: string): Promise<ResolvedSession | null> {
  if (!/^[0-9a-f]{64}$/.test(raw)) return null;
  const row = await findSessionByHash(db, hashToken(raw));
  if (!row || row.revoked_at !== null) return null;
  const now = clock.now().getTime();
  const lastUsed = new Date(row.last_used_at).getTime();
  if (now >= new Date(row.expires_at).getTime() || now >= lastUsed + config.tokenIdleHours * HOUR_MS) return null;
  if (now - lastUsed >= TOKEN_TOUCH_INTERVAL_MS) await touchAccessToken(db, row.id, new Date(now).toISOString());
  return {
    token: { tokenId: row.id, userType: row.user_type, accountId: row.account_id },
    accountActive: row.account_status === 'ACTIVO',
    subscriptionActive: row.subscription_active === null || fromFlag(row.subscription_active),
  };
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
