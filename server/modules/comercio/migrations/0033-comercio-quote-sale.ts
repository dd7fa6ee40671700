import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * The sale a quote became (docs/domain.md "Sales": quote acceptance): `quotes.sale_id`, set with
 * status ACEPTADA in the sale's own transaction (server/modules/comercio/sales.service.ts
 * `createSale`), so the quote shows the sale's number. Null for quotes no sale came from; a deleted
 * sale clears it (sales are annulled, never deleted, so that is only tests' clean-ups).
 */
export function quoteSaleMigration(_dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('quotes')
        .addColumn('sale_id', 'integer', (c) => c.references('sales.id').onDelete('set null'))
        .execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('quotes').dropColumn('sale_id').execute();
    },
  };
}
