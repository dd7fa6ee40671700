import type { Kysely } from 'kysely';
import type { DB, Instant, OutboxRow } from '../db/database';

/** SQL of `outbox`: the queue of outgoing e-mail (server/platform/outbox-delivery.ts; readable at /dev/outbox). */

/** A message to send. `link` is the secret link inside `body` (dropped from both once sent). */
export interface OutgoingMail {
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
}

/** Queues a message (PENDING, due at once). @returns its id. */
export async function insertOutboxMessage(db: Kysely<DB>, mail: OutgoingMail, at: Instant): Promise<number> {
  const { id } = await db
    .insertInto('outbox')
    .values({ ...mail, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The latest `limit` messages, newest first. */
export function listOutbox(db: Kysely<DB>, limit: number): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Ids of at most `limit` PENDING messages due at `now` (no attempt time, or one not after `now`), oldest first. */
export async function dueOutboxIds(db: Kysely<DB>, now: Instant, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'PENDING')
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Takes a due message for sending: moves its attempt time to `leaseUntil` if it is still PENDING
 * and due at `now`. Only one caller wins (one conditional UPDATE), so two server processes on one
 * database never send a message twice at once; a process that dies mid-send leaves the message to
 * be retried when the lease ends. @returns the message when this caller took it, else null.
 */
export async function claimOutboxMessage(db: Kysely<DB>, id: number, now: Instant, leaseUntil: Instant): Promise<OutboxRow | null> {
  const result = await db
    .updateTable('outbox')
    .set({ next_attempt_at: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return (await db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** `body` without the message's secret link (each occurrence replaced by `placeholder`). */
function bodyWithoutLink(message: Pick<OutboxRow, 'body' | 'link'>, placeholder: string): string {
  return message.link ? message.body.split(message.link).join(placeholder) : message.body;
}

/** Marks a message SENT and drops its secret link from `link` and `body` (replaced by `linkPlaceholder`). */
export async function markOutboxSent(db: Kysely<DB>, message: OutboxRow, at: Instant, linkPlaceholder: string): Promise<void> {
  const body = bodyWithoutLink(message, linkPlaceholder);
  await db
    .updateTable('outbox')
    .set({ status: 'SENT', sent_at: at, link: null, body, attempts: message.attempts + 1, next_attempt_at: null, last_error: null })
    .where('id', '=', message.id)
    .execute();
}

/**
 * Records a failed attempt: PENDING again with `retryAt`, or FAILED when `retryAt` is null (the
 * link is dropped then too, replaced by `linkPlaceholder` in the body: nobody will send it).
 */
export async function markOutboxFailure(
  db: Kysely<DB>,
  message: OutboxRow,
  failure: { error: string; retryAt: Instant | null; linkPlaceholder: string },
): Promise<void> {
  const attempts = message.attempts + 1;
  await db
    .updateTable('outbox')
    .set(
      failure.retryAt === null
        ? {
            status: 'FAILED',
            attempts,
            last_error: failure.error,
            next_attempt_at: null,
            link: null,
            body: bodyWithoutLink(message, failure.linkPlaceholder),
          }
        : { status: 'PENDING', attempts, last_error: failure.error, next_attempt_at: failure.retryAt },
    )
    .where('id', '=', message.id)
    .execute();
}
