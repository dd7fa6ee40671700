import { sql, type Kysely, type Migration } from 'kysely';
import { QUOTE_METHODS, QUOTE_STATUSES } from '../../../../src/schemas/comercio/quotes';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Quotes, cotizaciones (issue "CRM and sales"; DOMAIN.md "Sales cycle" → Quote). A quote keeps its
 * terms (discount, down payment and its parts, instalments, rate, method, first due date) and the
 * amounts they gave; the schedules are recomputed from the terms by src/lib/comercio/quote-plan.ts
 * (deterministic), so nothing row by row is stored. VENCIDA is read from `valid_until`.
 */
export function quotesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('quotes')
        .addColumn('id', 'integer', t.id)
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
        .addColumn('agent_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('list_price', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull())
        .addColumn('discount_percent', 'text')
        .addColumn('final_price', 'bigint', (c) => c.notNull())
        .addColumn('down_payment', 'bigint', (c) => c.notNull())
        .addColumn('down_payment_percent', 'text')
        .addColumn('down_payment_parts', 'integer', (c) => c.notNull())
        .addColumn('financed', 'bigint', (c) => c.notNull())
        .addColumn('instalments', 'integer', (c) => c.notNull())
        .addColumn('monthly_rate_percent', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('first_due_date', 'text')
        .addColumn('quote_date', 'text', (c) => c.notNull())
        .addColumn('valid_until', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('BORRADOR'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('quotes_status_check', sql.raw(`status in (${quotedList(QUOTE_STATUSES)})`))
        .addCheckConstraint('quotes_method_check', sql.raw(`method in (${quotedList(QUOTE_METHODS)})`))
        .addCheckConstraint('quotes_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint(
          'quotes_amounts_check',
          sql`discount >= 0 and final_price = list_price - discount and down_payment between 0 and final_price and financed = final_price - down_payment`,
        )
        .addCheckConstraint('quotes_terms_check', sql`instalments between 0 and 360 and down_payment_parts between 1 and 12`)
        .execute();
      await db.schema.createIndex('quotes_lot_idx').on('quotes').column('lot_id').execute();
      await db.schema.createIndex('quotes_customer_idx').on('quotes').column('customer_id').execute();
      await db.schema.createIndex('quotes_created_idx').on('quotes').column('created_at').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('quotes').execute();
    },
  };
}
