import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { columnTypes } from '../../../db/migrations/column-types';

/**
 * The settlement of an annulled sale's money (docs/domain.md "Annulling a sale"). Both dialects.
 *
 * - `sale_settlements`: one per annulled sale that had approved money on it: the mode
 *   (REEMBOLSO | CREDITO), the currency, and in céntimos what was paid (`paid`: the approved
 *   allocations on its instalments, late fees included), the penalty kept as income, the refund and
 *   what was credited to `target_sale_id` by the new payment `credit_payment_id`; the reason, who and
 *   when. The database itself keeps the money whole: `paid = refund + penalty + credited`, and each
 *   mode's own columns.
 * - `sale_settlement_payments (settlement_id, payment_id, amount)`: the approved payments the
 *   settlement took from the sale and what each had applied to it (the trace from a credit back to
 *   the money it came from).
 */
export function saleSettlementsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sale_settlements')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().unique().references('sales.id'))
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('paid', 'bigint', (c) => c.notNull())
        .addColumn('penalty', 'bigint', (c) => c.notNull())
        .addColumn('refund', 'bigint', (c) => c.notNull())
        .addColumn('credited', 'bigint', (c) => c.notNull())
        .addColumn('target_sale_id', 'integer', (c) => c.references('sales.id'))
        .addColumn('credit_payment_id', 'integer', (c) => c.references('payments.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('sale_settlements_mode_check', sql`mode in ('REEMBOLSO', 'CREDITO')`)
        .addCheckConstraint('sale_settlements_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint(
          'sale_settlements_amounts_check',
          sql`paid > 0 and penalty >= 0 and refund >= 0 and credited >= 0 and paid = refund + penalty + credited`,
        )
        .addCheckConstraint(
          'sale_settlements_mode_columns_check',
          sql`(mode = 'REEMBOLSO' and credited = 0 and target_sale_id is null and credit_payment_id is null)
            or (mode = 'CREDITO' and refund = 0 and target_sale_id is not null and target_sale_id <> sale_id
              and (credited = 0) = (credit_payment_id is null))`,
        )
        .execute();
      await db.schema.createIndex('sale_settlements_target_idx').on('sale_settlements').column('target_sale_id').execute();
      await db.schema
        .createTable('sale_settlement_payments')
        .addColumn('settlement_id', 'integer', (c) => c.notNull().references('sale_settlements.id').onDelete('cascade'))
        .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sale_settlement_payments_pk', ['settlement_id', 'payment_id'])
        .addCheckConstraint('sale_settlement_payments_amount_check', sql`amount > 0`)
        .execute();
      await db.schema.createIndex('sale_settlement_payments_payment_idx').on('sale_settlement_payments').column('payment_id').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sale_settlement_payments').execute();
      await db.schema.dropTable('sale_settlements').execute();
    },
  };
}
