import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * Indexes of the sales list on a large database (issue "CRM and sales", its performance clause;
 * docs/performance.md "The sales list"). The list finds a page's sales without joining `lots`
 * (server/modules/comercio/sales.service.ts `listSaleIds`): its filters by subdivision and by lot
 * read `sales` through `(lot_id, status)` — the live-sale unique index is partial, so a lot's sales
 * of every status had no index — and a status's page in date order through `(status, sale_date,
 * lot_id)`, which replaces 0019's `(status, sale_date)`: with the lot at hand in the index, a
 * status within a subdivision reads no sale row (1 362 REGISTRADA rows read: 2.8 → 0.5 ms). Both
 * dialects.
 *
 * On SQLite two expression indexes make the text search (`q`, a `%text%` LIKE that no B-tree can
 * seek) read small index entries instead of whole rows: the lot codes (`lower(code)`; a lot row
 * carries its polygon) and the customers' display name with their document number (the
 * expression of `displayNameSql`, server/modules/crm/customers.repository.ts, which must stay the
 * same text for SQLite to use it). PostgreSQL cannot answer such a LIKE from a B-tree either and
 * does not read an expression index in place of the rows, so it gets neither.
 */
export function salesIndexesMigration(dialect: DialectName): Migration {
  const sqlite = dialect === 'sqlite';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createIndex('sales_lot_status_idx').on('sales').columns(['lot_id', 'status']).execute();
      await db.schema.createIndex('sales_status_lot_idx').on('sales').columns(['status', 'sale_date', 'lot_id']).execute();
      await db.schema.dropIndex('sales_status_idx').execute();
      if (sqlite) {
        await sql`create index lots_code_lower_idx on lots (lower(code))`.execute(db);
        await sql`create index customers_display_name_idx on customers (lower(name || coalesce(' ' || surname, '')), document_number)`.execute(
          db,
        );
      }
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (sqlite) {
        await db.schema.dropIndex('customers_display_name_idx').execute();
        await db.schema.dropIndex('lots_code_lower_idx').execute();
      }
      await db.schema.createIndex('sales_status_idx').on('sales').columns(['status', 'sale_date']).execute();
      await db.schema.dropIndex('sales_status_lot_idx').execute();
      await db.schema.dropIndex('sales_lot_status_idx').execute();
    },
  };
}
