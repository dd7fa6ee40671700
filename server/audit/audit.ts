import type { FastifyRequest } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { AccountType, ChangeAction, ChangeHistoryTable, DB } from '../db/database';

/**
 * The change-history mechanism (docs/domain.md "Cross-cutting: Change history"; docs/decisions.md
 * "Configuración y Historial de cambios"). Every create, update and delete calls {@link recordChange}
 * with the transaction that makes the change, so the history row commits or rolls back with it.
 * Secrets (any key matching /password|token|secret/i, e.g. `password_hash`, `token_hash`) are never
 * stored, at any depth.
 */

/** Who makes a change and from where; the guard derives one per request (`request.audit`). */
export interface AuditContext {
  /** The authenticated caller; null for system changes (seed, jobs) and anonymous public calls. */
  actor: { userType: AccountType; accountId: number } | null;
  /** The client's IP (Fastify `request.ip`); null outside HTTP. */
  ip: string | null;
  /** Stamps `occurred_at`. */
  clock: Clock;
}

/** A change to record: `before` is null on CREATE, `after` null on DELETE. */
export interface ChangeInput {
  /** Table name of the record, e.g. 'users'. */
  entity: string;
  /** The record's id (composite keys joined with ':'). */
  recordId: number | string;
  action: ChangeAction;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Keys never written to the history. */
export const SECRET_KEY = /password|token|secret/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on every request: the caller (null when anonymous) and the IP. */
    audit: AuditContext | null;
  }
}

/** An audit context for changes made by the system itself (seed, fixtures, jobs). */
export function systemAuditContext(clock: Clock): AuditContext {
  return { actor: null, ip: null, clock };
}

/** The staff user behind a change, or null (a customer, the system). */
export const staffActorId = (audit: AuditContext): number | null =>
  audit.actor?.userType === 'COLLABORATOR' ? audit.actor.accountId : null;

/** The request's audit context (set by the guard), or an anonymous one with the request's IP. */
export function auditContextOf(request: FastifyRequest, clock: Clock): AuditContext {
  return request.audit ?? { actor: null, ip: request.ip, clock };
}

/**
 * Top-level keys left out of the history: `version` (migration 0007) is bookkeeping of the
 * optimistic lock, not a field anyone edits; `updated_at` already dates each change;
 * `search_text` (migration 0034) is the database's folded copy of fields already recorded.
 */
const BOOKKEEPING_KEYS: ReadonlySet<string> = new Set(['version', 'search_text']);

/** `snapshot` without {@link BOOKKEEPING_KEYS}. */
function withoutBookkeeping(snapshot: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(snapshot).filter(([key]) => !BOOKKEEPING_KEYS.has(key)));
}

/** A copy of `value` without secret keys, recursively (arrays and plain objects). */
export function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !SECRET_KEY.test(key))
        .map(([key, v]) => [key, stripSecrets(v)]),
    );
  }
  return value;
}

/** Names of the fields whose (JSON) value differs between `before` and `after`, sorted. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => JSON.stringify(before?.[key] ?? null) !== JSON.stringify(after?.[key] ?? null)).sort();
}

/**
 * The change_history row of one change: secret keys stripped from `before`/`after` (stored as
 * JSON text, null when absent), `changed_fields` the JSON array of {@link changedFields}, actor and
 * IP from `ctx`, `occurred_at` the given ISO instant.
 */
function historyRow(ctx: AuditContext, change: ChangeInput, occurredAt: string): Insertable<ChangeHistoryTable> {
  const before = change.before ? withoutBookkeeping(stripSecrets(change.before) as Record<string, unknown>) : null;
  const after = change.after ? withoutBookkeeping(stripSecrets(change.after) as Record<string, unknown>) : null;
  return {
    occurred_at: occurredAt,
    actor_type: ctx.actor?.userType ?? null,
    actor_id: ctx.actor?.accountId ?? null,
    ip: ctx.ip,
    entity: change.entity,
    record_id: String(change.recordId),
    action: change.action,
    before: before ? JSON.stringify(before) : null,
    after: after ? JSON.stringify(after) : null,
    changed_fields: JSON.stringify(changedFields(before, after)),
  };
}

/**
 * Writes one change-history row in `trx` (must be a transaction: the row shares the change's fate).
 * Secret keys are stripped from `before`/`after`; `changed_fields` lists the differing fields (every
 * field of the record on CREATE/DELETE). An UPDATE whose only differences were secrets is still
 * recorded (e.g. a password change shows `updated_at`).
 * @throws Error when `trx` is not a transaction (a programming error).
 */
export async function recordChange(trx: Kysely<DB>, ctx: AuditContext, change: ChangeInput): Promise<void> {
  if (!trx.isTransaction) throw new Error('recordChange must run inside the transaction of the change');
  await trx
    .insertInto('change_history')
    .values(historyRow(ctx, change, ctx.clock.now().toISOString()))
    .execute();
}

/** Rows inserted per statement by {@link recordChanges} (keeps SQLite and PostgreSQL under their parameter limits). */
const CHUNK = 250;

/**
 * {@link recordChange} for many records at once (same rows, one `occurred_at` for all, inserted
 * {@link CHUNK} per statement): imports of thousands of lots stay one statement per chunk, not
 * per record (PostgreSQL round trips). Nothing is written for an empty list.
 * @throws Error when `trx` is not a transaction (a programming error).
 */
export async function recordChanges(trx: Kysely<DB>, ctx: AuditContext, changes: readonly ChangeInput[]): Promise<void> {
  if (!trx.isTransaction) throw new Error('recordChanges must run inside the transaction of the change');
  const occurredAt = ctx.clock.now().toISOString();
  const rows = changes.map((change) => historyRow(ctx, change, occurredAt));
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto('change_history')
      .values(rows.slice(i, i + CHUNK))
      .execute();
}
