import { sql, type Kysely, type Migration } from 'kysely';
import { INSTALMENT_REMINDER_KINDS } from '../../../../src/schemas/finanzas/instalments';
import type { DialectName } from '../../../db/connection';
import { quotedList } from '../../../db/migrations/column-types';

/**
 * The instalments' reminders and the indexes of the instalment register (issue 16:
 * "/FINANZAS/RegistroCuotas", "Overdue reminders"; docs/decisions.md "Registro de Cuotas and
 * reminders"). Both dialects.
 *
 * - `instalment_reminders (instalment_id, kind, sent_on)`: one row per instalment and kind
 *   (POR_VENCER: due within 3 days; VENCIDA: became overdue) once its reminder was raised, written
 *   in the transaction that raises the notifications; the primary key makes "once" a database
 *   rule even with two server processes on one PostgreSQL database.
 * - `sale_instalments_open_sale_idx (sale_id, due_date) where status <> 'PAGADA'`: the daily
 *   late-fee job walks the sales with open instalments in sale order (server/modules/finanzas/late-fee-job.ts).
 * - The register (server/modules/finanzas/instalments.service.ts) reads `sale_instalments` alone and
 *   checks the sale by `sale_id [not] in (…)`: `sale_instalments_due_id_idx (due_date, id, sale_id)`
 *   gives its default order and due-date range, and `sale_instalments_status_due_idx (status,
 *   due_date, sale_id)` replaces 0019's `(status, due_date)` so a status's rows are counted and
 *   ordered from the index without reading the rows.
 */
export function finanzasInstalmentRemindersMigration(_dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('instalment_reminders')
        .addColumn('instalment_id', 'integer', (c) => c.notNull().references('sale_instalments.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('sent_on', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('instalment_reminders_pk', ['instalment_id', 'kind'])
        .addCheckConstraint('instalment_reminders_kind_check', sql.raw(`kind in (${quotedList(INSTALMENT_REMINDER_KINDS)})`))
        .execute();
      await db.schema
        .createIndex('sale_instalments_open_sale_idx')
        .on('sale_instalments')
        .columns(['sale_id', 'due_date'])
        .where(sql.raw<boolean>(`status <> 'PAGADA'`))
        .execute();
      await db.schema.createIndex('sale_instalments_due_id_idx').on('sale_instalments').columns(['due_date', 'id', 'sale_id']).execute();
      await db.schema
        .createIndex('sale_instalments_status_due_idx')
        .on('sale_instalments')
        .columns(['status', 'due_date', 'sale_id'])
        .execute();
      await db.schema.dropIndex('sale_instalments_due_idx').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.createIndex('sale_instalments_due_idx').on('sale_instalments').columns(['status', 'due_date']).execute();
      await db.schema.dropIndex('sale_instalments_status_due_idx').execute();
      await db.schema.dropIndex('sale_instalments_due_id_idx').execute();
      await db.schema.dropIndex('sale_instalments_open_sale_idx').execute();
      await db.schema.dropTable('instalment_reminders').execute();
    },
  };
}
