import { sql, type Kysely, type Migration } from 'kysely';
import { TITLE_STATES } from '../../../../src/schemas/administracion/titles';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Peru's national public holidays of 2026 and 2027, seeded into `public_holidays` (the admin edits
 * them afterwards: days the Government declares non-working, a new law).
 *
 * Source: Decreto Legislativo N.º 713, art. 6, as amended — Ley N.º 31530 (6 August, Batalla de
 * Junín), Ley N.º 31822 (23 July, Día de la Fuerza Aérea del Perú) and the 2023 laws adding 7 June
 * (Batalla de Arica y Día de la Bandera) and 9 December (Batalla de Ayacucho): sixteen national
 * holidays, as listed on gob.pe "Feriados nacionales". Holy Thursday and Good Friday follow Easter
 * (5 April 2026, 28 March 2027).
 */
/** Holy Thursday and Good Friday of each seeded year. */
const HOLY_WEEK: Readonly<Record<number, readonly [string, string]>> = {
  2026: ['2026-04-02', '2026-04-03'],
  2027: ['2027-03-25', '2027-03-26'],
};

export const PERU_HOLIDAYS_2026_2027: ReadonlyArray<readonly [date: string, name: string]> = [2026, 2027].flatMap(
  (year): Array<readonly [string, string]> => [
    [`${year}-01-01`, 'Año Nuevo'],
    [HOLY_WEEK[year]![0], 'Jueves Santo'],
    [HOLY_WEEK[year]![1], 'Viernes Santo'],
    [`${year}-05-01`, 'Día del Trabajo'],
    [`${year}-06-07`, 'Batalla de Arica y Día de la Bandera'],
    [`${year}-06-29`, 'San Pedro y San Pablo'],
    [`${year}-07-23`, 'Día de la Fuerza Aérea del Perú'],
    [`${year}-07-28`, 'Fiestas Patrias'],
    [`${year}-07-29`, 'Fiestas Patrias'],
    [`${year}-08-06`, 'Batalla de Junín'],
    [`${year}-08-30`, 'Santa Rosa de Lima'],
    [`${year}-10-08`, 'Combate de Angamos'],
    [`${year}-11-01`, 'Todos los Santos'],
    [`${year}-12-08`, 'Inmaculada Concepción'],
    [`${year}-12-09`, 'Batalla de Ayacucho'],
    [`${year}-12-25`, 'Navidad'],
  ],
);

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
