import { sql, type Kysely, type Migration } from 'kysely';
import { BANK_ACCOUNT_KINDS } from '../../../../src/schemas/finanzas/bank-accounts';
import { WALLET_KINDS } from '../../../../src/schemas/finanzas/wallets';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Finanzas: the company's bank accounts and wallets (issue 16 "Money in", first slice;
 * docs/decisions.md "Bank accounts and wallets"). Payments of later slices will reference either
 * by id as their destination, so rows are kept (deactivated) once referenced.
 *
 * - `bank_accounts`: bank code (src/schemas/finanzas/banks.ts; not a CHECK, so the catalogue can
 *   grow without a migration), kind, currency, number and CCI as digits; unique (bank, number) and
 *   unique CCI.
 * - `wallets`: kind, phone (9 digits), holder; the QR image's bytes and type in the row (served by
 *   GET /api/wallets/{id}/qr after the access check, never from the web root); unique (kind, phone).
 */
export function finanzasAccountsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('bank_accounts')
        .addColumn('id', 'integer', t.id)
        .addColumn('bank', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('cci', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('bank_accounts_kind_check', sql.raw(`kind in (${quotedList(BANK_ACCOUNT_KINDS)})`))
        .addCheckConstraint('bank_accounts_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('bank_accounts_active_check', sql`active in (0, 1)`)
        .execute();
      await db.schema.createIndex('bank_accounts_bank_number_uq').on('bank_accounts').columns(['bank', 'number']).unique().execute();
      await db.schema.createIndex('bank_accounts_cci_uq').on('bank_accounts').column('cci').unique().execute();

      await db.schema
        .createTable('wallets')
        .addColumn('id', 'integer', t.id)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('qr_content_type', 'text')
        .addColumn('qr_updated_at', t.instant)
        // Last: SQLite reads a row's overflow pages only for the columns a query asks for.
        .addColumn('qr_data', blob)
        .addCheckConstraint('wallets_kind_check', sql.raw(`kind in (${quotedList(WALLET_KINDS)})`))
        .addCheckConstraint('wallets_active_check', sql`active in (0, 1)`)
        .addCheckConstraint('wallets_qr_check', sql`(qr_data is null) = (qr_content_type is null)`)
        .execute();
      await db.schema.createIndex('wallets_kind_phone_uq').on('wallets').columns(['kind', 'phone']).unique().execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('wallets').execute();
      await db.schema.dropTable('bank_accounts').execute();
    },
  };
}
