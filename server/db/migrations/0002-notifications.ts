import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connection';
import { columnTypes } from './column-types';

/**
 * Notifications (issue "Shell"; docs/product.md §3 Notification, §7 rows 12–14): the type catalogue (code,
 * Spanish name, Blueprint icon, hex colour) and one row per recipient account (staff user or
 * customer, like `access_tokens`), unseen while `seen_at` is null.
 * The catalogue rows are written here (not imported) so this migration never changes once released.
 */
export function notificationsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('notification_types')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('icon', 'text', (c) => c.notNull())
        .addColumn('color_icon', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db
        .insertInto('notification_types')
        .values([
          { code: 'INFO', name: 'Información', icon: 'info-sign', color_icon: '#3b82f6', sort_order: 1 },
          { code: 'SUCCESS', name: 'Éxito', icon: 'tick-circle', color_icon: '#10b981', sort_order: 2 },
          { code: 'WARNING', name: 'Advertencia', icon: 'warning-sign', color_icon: '#f59e0b', sort_order: 3 },
          { code: 'ERROR', name: 'Error', icon: 'error', color_icon: '#ef4444', sort_order: 4 },
          { code: 'PAYMENT', name: 'Pago', icon: 'dollar', color_icon: '#14b8a6', sort_order: 5 },
          { code: 'SALE', name: 'Venta', icon: 'shopping-cart', color_icon: '#8b5cf6', sort_order: 6 },
          { code: 'CUSTOMER', name: 'Cliente', icon: 'new-person', color_icon: '#0ea5e9', sort_order: 7 },
          { code: 'SECURITY', name: 'Seguridad', icon: 'lock', color_icon: '#6366f1', sort_order: 8 },
        ])
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', 'integer', t.id)
        .addColumn('recipient_type', 'text', (c) => c.notNull())
        .addColumn('recipient_id', 'integer', (c) => c.notNull())
        .addColumn('type_code', 'text', (c) => c.notNull().references('notification_types.code'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('route', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('seen_at', t.instant)
        .addCheckConstraint('notifications_recipient_type_check', sql`recipient_type in ('COLLABORATOR', 'CUSTOMER')`)
        .execute();
      // Listing: a recipient's newest first.
      await db.schema
        .createIndex('notifications_recipient_created_idx')
        .on('notifications')
        .columns(['recipient_type', 'recipient_id', 'created_at'])
        .execute();
      // Unread count: only unseen rows are indexed.
      await db.schema
        .createIndex('notifications_recipient_unseen_idx')
        .on('notifications')
        .columns(['recipient_type', 'recipient_id'])
        .where(sql.ref('seen_at'), 'is', null)
        .execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('notifications').ifExists().execute();
      await db.schema.dropTable('notification_types').ifExists().execute();
    },
  };
}
