import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { columnTypes } from '../../../db/migrations/column-types';

/**
 * Reportes económicos: the expenses register (docs/reports.md "Ingresos vs egresos and the
 * expenses register"; src/schemas/reportes/expenses.ts), what Ingresos vs egresos subtracts from
 * the approved payments until Ingeniería's purchases land.
 *
 * `expenses`: the subdivision (foreign key; a subdivision with expenses cannot be deleted), the
 * date (`YYYY-MM-DD` text, Lima, as `sales.sale_date` and `payments.operation_date`), the concept
 * (≤ 200 characters), the amount (integer céntimos > 0), the currency (the subdivision's: the
 * service checks it, the CHECK bounds it to PEN | USD), an optional voucher reference (≤ 60; no
 * file), who registered it, instants and the edit `version`. Index (subdivision_id, expense_date):
 * the report's and the list's period per subdivision is one index range.
 *
 * And the index `payments (status, operation_date, sale_id, reservation_id, currency, amount)`:
 * the report's income (Σ approved payments of a period per sale or reservation and currency) reads
 * it alone, without visiting the payments' rows — on 100 000 sales and 300 000 payments a year's
 * income went from ~175 ms to ~70 ms on SQLite (docs/reports.md "Ingresos vs egresos and the
 * expenses register").
 */
export function reportesExpensesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('expenses')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id'))
        .addColumn('expense_date', 'text', (c) => c.notNull())
        .addColumn('concept', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('voucher', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('expenses_amount_check', sql`amount > 0`)
        .addCheckConstraint('expenses_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('expenses_concept_check', sql`length(concept) between 1 and 200`)
        .addCheckConstraint('expenses_voucher_check', sql`voucher is null or length(voucher) between 1 and 60`)
        .addCheckConstraint('expenses_date_check', sql`length(expense_date) = 10`)
        .execute();
      await db.schema.createIndex('expenses_subdivision_date_idx').on('expenses').columns(['subdivision_id', 'expense_date']).execute();
      await db.schema.createIndex('expenses_date_idx').on('expenses').columns(['expense_date', 'id']).execute();
      await db.schema
        .createIndex('payments_income_idx')
        .on('payments')
        .columns(['status', 'operation_date', 'sale_id', 'reservation_id', 'currency', 'amount'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('payments_income_idx').execute();
      await db.schema.dropTable('expenses').execute();
    },
  };
}
