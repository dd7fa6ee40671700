import { sql, type Kysely, type Migration } from 'kysely';
import { HOLDER_ROLES, INSTALMENT_KINDS, SALE_STATUSES, SALE_TYPES } from '../../../../src/schemas/comercio/sales';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Sales, ventas (issue "CRM and sales"; DOMAIN.md "Sales cycle" → Sale, Instalment): `sales` with
 * their buyers (`sale_holders`) and schedule (`sale_instalments`: the down payment's parts, kind
 * INICIAL, and the monthly instalments, kind CUOTA; `paid` counts what was credited or paid). One
 * sale not ANULADA per lot is a database rule (`sales_live_lot_uq`, a unique partial index, the
 * same on SQLite and PostgreSQL), behind the service's conditional update of the lot to VENDIDO.
 */
export function salesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sales')
        .addColumn('id', 'integer', t.id)
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('agent_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('guarantor_customer_id', 'integer', (c) => c.references('customers.id'))
        .addColumn('reservation_id', 'integer', (c) => c.references('reservations.id'))
        .addColumn('quote_id', 'integer', (c) => c.references('quotes.id'))
        .addColumn('sale_date', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('list_price', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull())
        .addColumn('final_price', 'bigint', (c) => c.notNull())
        .addColumn('down_payment', 'bigint', (c) => c.notNull())
        .addColumn('reservation_credit', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('financed', 'bigint', (c) => c.notNull())
        .addColumn('instalments', 'integer', (c) => c.notNull())
        .addColumn('monthly_rate_percent', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('total_interest', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('REGISTRADA'))
        .addColumn('annul_reason', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('sales_status_check', sql.raw(`status in (${quotedList(SALE_STATUSES)})`))
        .addCheckConstraint('sales_type_check', sql.raw(`type in (${quotedList(SALE_TYPES)})`))
        .addCheckConstraint('sales_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint(
          'sales_amounts_check',
          sql`discount >= 0 and final_price = list_price - discount and down_payment between 0 and final_price and financed = final_price - down_payment and reservation_credit between 0 and down_payment`,
        )
        .addCheckConstraint('sales_annul_reason_check', sql`status <> 'ANULADA' or annul_reason is not null`)
        .execute();
      await db.schema
        .createIndex('sales_live_lot_uq')
        .on('sales')
        .column('lot_id')
        .unique()
        .where(sql.raw<boolean>(`status <> 'ANULADA'`))
        .execute();
      await db.schema.createIndex('sales_date_idx').on('sales').columns(['sale_date', 'id']).execute();
      await db.schema.createIndex('sales_status_idx').on('sales').columns(['status', 'sale_date']).execute();
      await db.schema.createIndex('sales_agent_idx').on('sales').column('agent_id').execute();

      await db.schema
        .createTable('sale_holders')
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('share_percent', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('sale_holders_pk', ['sale_id', 'customer_id'])
        .addCheckConstraint('sale_holders_role_check', sql.raw(`role in (${quotedList(HOLDER_ROLES)})`))
        .execute();
      await db.schema.createIndex('sale_holders_customer_idx').on('sale_holders').column('customer_id').execute();

      await db.schema
        .createTable('sale_instalments')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('capital', 'bigint', (c) => c.notNull())
        .addColumn('interest', 'bigint', (c) => c.notNull())
        .addColumn('paid', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDIENTE'))
        .addCheckConstraint('sale_instalments_kind_check', sql.raw(`kind in (${quotedList(INSTALMENT_KINDS)})`))
        .addCheckConstraint('sale_instalments_amounts_check', sql`amount = capital + interest and paid between 0 and amount`)
        .execute();
      await db.schema
        .createIndex('sale_instalments_sale_uq')
        .on('sale_instalments')
        .columns(['sale_id', 'kind', 'number'])
        .unique()
        .execute();
      await db.schema.createIndex('sale_instalments_due_idx').on('sale_instalments').columns(['status', 'due_date']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sale_instalments').execute();
      await db.schema.dropTable('sale_holders').execute();
      await db.schema.dropTable('sales').execute();
    },
  };
}
