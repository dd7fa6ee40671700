import { sql, type Kysely, type Migration } from 'kysely';
import { PAYMENT_METHODS, PAYMENT_SOURCES, PAYMENT_STATUSES, RECEIPT_SERIES } from '../../../../src/schemas/finanzas/payments';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Payments and what they apply (issue 16 "Money in"; DOMAIN.md "Payment", "Instalment", "Late fee";
 * docs/decisions.md "Payments"). Both dialects.
 *
 * - `payments`: one payment towards a sale or a reservation (exactly one), by a customer, in
 *   céntimos of a currency; its method and destination (a bank account or a wallet, never both);
 *   the operation number, unique per destination among the payments that count (PENDIENTE and
 *   APROBADO: a rejected or annulled one may be sent again); its review state with reasons, who
 *   and when; its receipt (series + correlative) once approved, kept when annulled.
 * - `payment_vouchers`: the voucher images (bytes in the row, never in the web root; served by the
 *   routes after their access check).
 * - `payment_allocations (payment_id, instalment_id, to_late_fee, to_capital)`: what approval put on
 *   each instalment; they add up to the payment's amount (checked by the service and the tests).
 * - `receipt_counters (series, last_number)`: the correlative of each series, raised by one
 *   conditional UPDATE inside the approving transaction, so concurrent approvals never share or skip
 *   a number (a rolled-back approval rolls its number back too).
 * - `sale_instalments` gains the late fee: `late_fee_accrued` (what the policy gives, stored by the
 *   daily job and by each review when the figure changes; `late_fee_as_of` the date of that figure),
 *   `late_fee_paid`,
 *   `late_fee_waived` — céntimos; what is owed is accrued − paid − waived, never below 0.
 */
export function finanzasPaymentsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  const counting = `status in ('PENDIENTE', 'APROBADO')`;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('payments')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.references('sales.id'))
        .addColumn('reservation_id', 'integer', (c) => c.references('reservations.id'))
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('bank_account_id', 'integer', (c) => c.references('bank_accounts.id'))
        .addColumn('wallet_id', 'integer', (c) => c.references('wallets.id'))
        .addColumn('operation_number', 'text')
        .addColumn('operation_date', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('registered_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDIENTE'))
        .addColumn('reviewed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('reviewed_at', t.instant)
        .addColumn('reject_reason', 'text')
        .addColumn('annulled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('annulled_at', t.instant)
        .addColumn('annul_reason', 'text')
        .addColumn('receipt_series', 'text')
        .addColumn('receipt_number', 'integer')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('payments_target_check', sql`(sale_id is null) <> (reservation_id is null)`)
        .addCheckConstraint('payments_amount_check', sql`amount > 0`)
        .addCheckConstraint('payments_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('payments_method_check', sql.raw(`method in (${quotedList(PAYMENT_METHODS)})`))
        .addCheckConstraint('payments_source_check', sql.raw(`source in (${quotedList(PAYMENT_SOURCES)})`))
        .addCheckConstraint('payments_status_check', sql.raw(`status in (${quotedList(PAYMENT_STATUSES)})`))
        .addCheckConstraint('payments_destination_check', sql`bank_account_id is null or wallet_id is null`)
        .addCheckConstraint('payments_reject_check', sql`status <> 'RECHAZADO' or reject_reason is not null`)
        .addCheckConstraint('payments_annul_check', sql`status <> 'ANULADO' or annul_reason is not null`)
        .addCheckConstraint(
          'payments_receipt_check',
          sql`(status in ('APROBADO', 'ANULADO')) = (receipt_number is not null) and (receipt_number is null) = (receipt_series is null)`,
        )
        .execute();
      await db.schema
        .createIndex('payments_bank_operation_uq')
        .on('payments')
        .columns(['bank_account_id', 'operation_number'])
        .unique()
        .where(sql.raw<boolean>(`bank_account_id is not null and operation_number is not null and ${counting}`))
        .execute();
      await db.schema
        .createIndex('payments_wallet_operation_uq')
        .on('payments')
        .columns(['wallet_id', 'operation_number'])
        .unique()
        .where(sql.raw<boolean>(`wallet_id is not null and operation_number is not null and ${counting}`))
        .execute();
      await db.schema.createIndex('payments_receipt_uq').on('payments').columns(['receipt_series', 'receipt_number']).unique().execute();
      await db.schema.createIndex('payments_status_created_idx').on('payments').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('payments_created_idx').on('payments').column('created_at').execute();
      await db.schema.createIndex('payments_sale_idx').on('payments').columns(['sale_id', 'status']).execute();
      await db.schema.createIndex('payments_reservation_idx').on('payments').column('reservation_id').execute();
      await db.schema.createIndex('payments_customer_idx').on('payments').column('customer_id').execute();

      await db.schema
        .createTable('payment_vouchers')
        .addColumn('id', 'integer', t.id)
        .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', t.instant, (c) => c.notNull())
        // Last: SQLite reads a row's overflow pages only for the columns a query asks for.
        .addColumn('data', blob, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_vouchers_payment_idx').on('payment_vouchers').column('payment_id').execute();

      await db.schema
        .createTable('payment_allocations')
        .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id').onDelete('cascade'))
        .addColumn('instalment_id', 'integer', (c) => c.notNull().references('sale_instalments.id').onDelete('cascade'))
        .addColumn('to_late_fee', 'bigint', (c) => c.notNull())
        .addColumn('to_capital', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('payment_allocations_pk', ['payment_id', 'instalment_id'])
        .addCheckConstraint('payment_allocations_amounts_check', sql`to_late_fee >= 0 and to_capital >= 0 and to_late_fee + to_capital > 0`)
        .execute();
      await db.schema.createIndex('payment_allocations_instalment_idx').on('payment_allocations').column('instalment_id').execute();

      await db.schema
        .createTable('receipt_counters')
        .addColumn('series', 'text', (c) => c.primaryKey())
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .addCheckConstraint('receipt_counters_number_check', sql`last_number >= 0`)
        .execute();
      await db.insertInto('receipt_counters').values({ series: RECEIPT_SERIES, last_number: 0 }).execute();

      for (const column of ['late_fee_accrued', 'late_fee_paid', 'late_fee_waived'])
        await sql.raw(`alter table sale_instalments add column "${column}" bigint default 0 not null check ("${column}" >= 0)`).execute(db);
      await sql.raw(`alter table sale_instalments add column "late_fee_as_of" text`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const column of ['late_fee_as_of', 'late_fee_waived', 'late_fee_paid', 'late_fee_accrued'])
        await sql.raw(`alter table sale_instalments drop column "${column}"`).execute(db);
      await db.schema.dropTable('receipt_counters').execute();
      await db.schema.dropTable('payment_allocations').execute();
      await db.schema.dropTable('payment_vouchers').execute();
      await db.schema.dropTable('payments').execute();
    },
  };
}
