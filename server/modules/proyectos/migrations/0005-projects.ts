import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { columnTypes } from '../../../db/migrations/column-types';

/**
 * Proyectos (issue "Proyectos"; docs/domain.md "Projects and lots", "Maps"): subdivisions
 * (lotizaciones) with their plan image, stages (etapas), blocks (manzanas), lots and the lots'
 * status history.
 *
 * Units: areas in m² and lengths in metres as double precision rounded to 2 decimals by the
 * services; money as integer céntimos in the subdivision's `currency` (`price_per_m2` is céntimos
 * per m²). Polygons are JSON arrays of `[x, y]` vertices (the ring is not repeated at the end) in
 * the subdivision's `coordinate_system`: `PLAN` (metres or drawing units of the engineers' plan, y
 * up) or `GEO` (`[longitude, latitude]`, WGS84).
 */
export function projectsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const postgres = dialect === 'postgres';
  const real = postgres ? 'double precision' : 'real';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('subdivisions')
        .addColumn('id', 'integer', t.id)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('department', 'text', (c) => c.notNull())
        .addColumn('province', 'text', (c) => c.notNull())
        .addColumn('district', 'text', (c) => c.notNull())
        .addColumn('ubigeo', 'text')
        .addColumn('address', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('total_area_m2', real, (c) => c.notNull())
        .addColumn('registry_entry', 'text')
        .addColumn('licence_number', 'text')
        .addColumn('licence_date', t.date)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('public_prices', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('coordinate_system', 'text', (c) => c.notNull().defaultTo('PLAN'))
        .addColumn('plan_content_type', 'text')
        .addColumn('plan_data', postgres ? 'bytea' : 'blob')
        .addColumn('plan_width', 'integer')
        .addColumn('plan_height', 'integer')
        .addColumn('plan_updated_at', t.instant)
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('subdivisions_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('subdivisions_status_check', sql`status in ('EN_PREVENTA', 'EN_VENTA', 'AGOTADO', 'CERRADO')`)
        .addCheckConstraint('subdivisions_crs_check', sql`coordinate_system in ('PLAN', 'GEO')`)
        .execute();

      await db.schema
        .createTable('stages')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('stages_subdivision_name_unique', ['subdivision_id', 'name'])
        .execute();

      await db.schema
        .createTable('blocks')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('stage_id', 'integer', (c) => c.references('stages.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addUniqueConstraint('blocks_subdivision_name_unique', ['subdivision_id', 'name'])
        .execute();

      await db.schema
        .createTable('lots')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id'))
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('area_m2', real, (c) => c.notNull())
        .addColumn('perimeter_m', real)
        .addColumn('front_m', real)
        .addColumn('front_neighbour', 'text')
        .addColumn('back_m', real)
        .addColumn('back_neighbour', 'text')
        .addColumn('right_m', real)
        .addColumn('right_neighbour', 'text')
        .addColumn('left_m', real)
        .addColumn('left_neighbour', 'text')
        .addColumn('price_per_m2', 'integer', (c) => c.notNull())
        .addColumn('list_price', 'integer', (c) => c.notNull())
        .addColumn('list_price_reason', 'text')
        .addColumn('is_corner', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('facing_park', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('DISPONIBLE'))
        .addColumn('polygon', 'text')
        .addColumn('registry_entry', 'text')
        .addColumn('notes', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addUniqueConstraint('lots_subdivision_code_unique', ['subdivision_id', 'code'])
        .addUniqueConstraint('lots_block_number_unique', ['block_id', 'number'])
        .addCheckConstraint(
          'lots_status_check',
          sql`status in ('DISPONIBLE', 'SEPARADO', 'VENDIDO', 'BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE')`,
        )
        .addCheckConstraint('lots_price_check', sql`price_per_m2 >= 0 and list_price >= 0 and area_m2 > 0`)
        .execute();
      await db.schema.createIndex('lots_subdivision_status_idx').on('lots').columns(['subdivision_id', 'status']).execute();
      await db.schema.createIndex('lots_block_idx').on('lots').column('block_id').execute();

      await db.schema
        .createTable('lot_status_changes')
        .addColumn('id', 'integer', t.id)
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id').onDelete('cascade'))
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id'))
        .addColumn('changed_at', t.instant, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lot_status_changes_lot_idx').on('lot_status_changes').columns(['lot_id', 'id']).execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const table of ['lot_status_changes', 'lots', 'blocks', 'stages', 'subdivisions']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
