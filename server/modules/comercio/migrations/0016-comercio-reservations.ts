import { sql, type Kysely, type Migration } from 'kysely';
import { LIVE_RESERVATION_STATUSES, RESERVATION_STATUSES } from '../../../../src/schemas/comercio/reservations';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Reservations, separaciones (issue "CRM and sales"; docs/domain.md "Sales cycle"). One live
 * (PENDIENTE_PAGO or VIGENTE) reservation per lot is a database rule, `reservations_live_lot_uq`
 * (a unique partial index, the same on SQLite and PostgreSQL), behind the service's conditional
 * update of the lot's status. `expires_at` is the expiry job's queue: the index on (status,
 * expires_at) finds what is due; `reminded_at` marks the "vence mañana" notification sent.
 */
export function reservationsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('reservations')
        .addColumn('id', 'integer', t.id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('agent_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('hold_days', 'integer', (c) => c.notNull())
        .addColumn('expires_at', t.instant, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDIENTE_PAGO'))
        .addColumn('cancel_reason', 'text')
        .addColumn('conditions_accepted_at', t.instant, (c) => c.notNull())
        .addColumn('reminded_at', t.instant)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('reservations_status_check', sql.raw(`status in (${quotedList(RESERVATION_STATUSES)})`))
        .addCheckConstraint('reservations_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('reservations_amount_check', sql`amount > 0`)
        .addCheckConstraint('reservations_hold_days_check', sql`hold_days between 1 and 30`)
        .execute();
      await db.schema
        .createIndex('reservations_live_lot_uq')
        .on('reservations')
        .column('lot_id')
        .unique()
        .where(sql.raw<boolean>(`status in (${quotedList(LIVE_RESERVATION_STATUSES)})`))
        .execute();
      await db.schema.createIndex('reservations_due_idx').on('reservations').columns(['status', 'expires_at']).execute();
      await db.schema.createIndex('reservations_customer_idx').on('reservations').column('customer_id').execute();
      await db.schema.createIndex('reservations_lot_idx').on('reservations').column('lot_id').execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('reservations').execute();
    },
  };
}
