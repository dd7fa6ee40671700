import type { Kysely } from 'kysely';
import type { DB, Instant, OutboxRow } from '../db/database';

/** SQL of `outbox`: e-mails the server "sends" (kept in the database; readable at /dev/outbox). */

/** A message to send. */
export interface OutgoingMail {
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
}

/** Stores a message. @returns its id. */
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
