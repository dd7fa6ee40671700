import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * The documents a sale's legal events generate (docs/domain.md "Rescission and rescheduling:
 * their documents"): a sale may have one ADENDA per rescheduling, so an ADENDA contract names the
 * adenda it writes down.
 * - `contracts.reschedule_id`: the `sale_reschedules` row of an ADENDA contract (null for the other
 *   kinds, and for an ADENDA made before this migration).
 * - `contracts_live_per_sale_idx` (one live contract per sale and kind, migration 0043) becomes one
 *   live contract per sale, kind and adenda: (sale_id, kind, coalesce(reschedule_id, 0)) where the
 *   state is not ANULADO — both dialects take the expression in a partial unique index.
 */
export function administracionSaleDocumentsMigration(dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('contracts')
        .addColumn('reschedule_id', 'integer', (c) => c.references('sale_reschedules.id').onDelete('set null'))
        .execute();
      await db.schema.dropIndex('contracts_live_per_sale_idx').execute();
      await sql
        .raw(
          `create unique index contracts_live_per_sale_idx on contracts (sale_id, kind, coalesce(reschedule_id, 0)) where state <> 'ANULADO'`,
        )
        .execute(db);
      await db.schema.createIndex('contracts_reschedule_idx').on('contracts').column('reschedule_id').execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('contracts_reschedule_idx').execute();
      await db.schema.dropIndex('contracts_live_per_sale_idx').execute();
      await sql.raw(`create unique index contracts_live_per_sale_idx on contracts (sale_id, kind) where state <> 'ANULADO'`).execute(db);
      // SQLite cannot drop a column with a foreign key: there the (then unused) column stays.
      if (dialect === 'postgres') await db.schema.alterTable('contracts').dropColumn('reschedule_id').execute();
    },
  };
}
