import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connection';
import { columnTypes } from './column-types';

/**
 * The outbox becomes the durable queue of outgoing e-mail (issue 11 item 10; server/platform/
 * outbox-delivery.ts): each message gets a delivery state — `status` PENDING | SENT | FAILED,
 * `attempts`, `next_attempt_at` (null = due now; also the lease of a message being sent),
 * `last_error` and `sent_at`. Messages queued before this migration were never sent by anyone and
 * their links have long expired: they become FAILED ("queued before SMTP delivery existed") and
 * lose their link, so an upgrade does not mail stale links.
 */
export function outboxDeliveryMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('outbox')
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .defaultTo('PENDING')
            .check(sql`status in ('PENDING', 'SENT', 'FAILED')`),
        )
        .execute();
      await db.schema
        .alterTable('outbox')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('outbox').addColumn('next_attempt_at', t.instant).execute();
      await db.schema.alterTable('outbox').addColumn('last_error', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('sent_at', t.instant).execute();
      await db
        .updateTable('outbox')
        .set({ status: 'FAILED', link: null, last_error: 'Encolado antes de que existiera el envío por SMTP' })
        .execute();
      await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['status', 'next_attempt_at']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('outbox_due_idx').execute();
      for (const column of ['sent_at', 'last_error', 'next_attempt_at', 'attempts', 'status']) {
        await db.schema.alterTable('outbox').dropColumn(column).execute();
      }
    },
  };
}
