import { sql, type Kysely, type Migration } from 'kysely';
import { TITLE_STATES } from '../../../../src/schemas/administracion/titles';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';
import { PERU_HOLIDAYS_2026_2027 } from '../../../../src/lib/administracion/peru-holidays';

/**
 * Titles at SUNARP (docs/domain.md "Titles at SUNARP"; src/schemas/administracion/titles.ts):
 * `public_holidays` (seeded with {@link PERU_HOLIDAYS_2026_2027}), `title_processes` — one per sale
 * (unique `sale_id`), its state and the fields each state brings — and `title_events`, the
 * history of its moves with the step's fields.
 */
export function administracionTitlesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('public_holidays')
        .addColumn('id', 'integer', t.id)
        .addColumn('date', t.date, (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      const stamp = new Date().toISOString();
      await db
        .insertInto('public_holidays')
        .values(PERU_HOLIDAYS_2026_2027.map(([date, name]) => ({ date, name, created_at: stamp, updated_at: stamp })))
        .execute();

      await db.schema
        .createTable('title_processes')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().unique().references('sales.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('state_since', t.date, (c) => c.notNull())
        .addColumn('retention_pact_stated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('retention_pact_note', 'text')
        .addColumn('notes', 'text')
        .addColumn('minuta_signed_on', t.date)
        .addColumn('notary', 'text')
        .addColumn('escritura_number', 'text')
        .addColumn('escritura_date', t.date)
        .addColumn('titulo_number', 'text')
        .addColumn('presented_on', t.date)
        .addColumn('observation', 'text')
        .addColumn('reentry_on', t.date)
        .addColumn('mayor_derecho_amount', 'bigint')
        .addColumn('mayor_derecho_currency', 'text')
        .addColumn('mayor_derecho_paid_on', t.date)
        .addColumn('partida', 'text')
        .addColumn('asiento', 'text')
        .addColumn('inscribed_on', t.date)
        .addColumn('delivery_reference', 'text')
        .addColumn('delivered_on', t.date)
        .addColumn('deadline_notice_for', t.date)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('title_processes_state_check', sql.raw(`state in (${quotedList(TITLE_STATES)})`))
        .addCheckConstraint(
          'title_processes_currency_check',
          sql.raw(`mayor_derecho_currency is null or mayor_derecho_currency in ('PEN', 'USD')`),
        )
        .execute();
      await db.schema.createIndex('title_processes_state_idx').on('title_processes').columns(['state', 'state_since']).execute();

      await db.schema
        .createTable('title_events')
        .addColumn('id', 'integer', t.id)
        .addColumn('process_id', 'integer', (c) => c.notNull().references('title_processes.id').onDelete('cascade'))
        .addColumn('from_state', 'text')
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('date', t.date, (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('title_events_process_idx').on('title_events').columns(['process_id', 'id']).execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('title_events').execute();
      await db.schema.dropTable('title_processes').execute();
      await db.schema.dropTable('public_holidays').execute();
    },
  };
}
