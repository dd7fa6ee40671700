import { sql, type Kysely, type Migration } from 'kysely';
import { LAND_USES, MAX_LAND_USE_LABEL } from '../../../../src/schemas/proyectos/projects';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';
import type { DialectName } from '../../../db/connection';

/**
 * The land uses remembered per subdivision by the lot import (docs/import.md "Land use"):
 * `lot_import_land_uses` maps a value of the engineers' files that is not a use's own name
 * ("Zona reservada", "Pozo tubular"), stored as its key (accents, case and punctuation removed:
 * src/lib/proyectos/land-use-words.ts `landUseKey`, e.g. "ZONA RESERVADA"), to the use the user
 * chose for it. The next import of the subdivision's files applies it (shown as "Recordado", still
 * editable). One row per subdivision and key; deleted with the subdivision. Written with a
 * change-history row (entity `lot_import_land_uses`). Both dialects create it the same way.
 */
export function lotImportLandUsesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('lot_import_land_uses')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('land_use', 'text', (c) => c.notNull())
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addUniqueConstraint('lot_import_land_uses_label_unique', ['subdivision_id', 'label'])
        .addCheckConstraint('lot_import_land_uses_land_use_check', sql.raw(`land_use in (${quotedList(LAND_USES)})`))
        .addCheckConstraint('lot_import_land_uses_label_check', sql.raw(`length(label) between 1 and ${MAX_LAND_USE_LABEL}`))
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('lot_import_land_uses').ifExists().execute();
    },
  };
}
