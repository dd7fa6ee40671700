import { sql, type Kysely, type Migration } from 'kysely';
import {
  COMMISSION_BASES,
  COMMISSION_ROLES,
  COMMISSION_STATES,
  COMMISSION_TRIGGERS,
  SETTLEMENT_STATES,
  TRANCHE_MOMENTS,
} from '../../../../src/schemas/administracion/commissions';
import { ACTION, SCOPE, SUBMODULE } from '../../../../src/schemas/permissions';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Commissions (docs/domain.md "Commissions"; src/schemas/administracion/commissions.ts):
 * - `users.issues_fee_receipts` (the agent issues recibos por honorarios: 4th-category withholding)
 *   and `users.sales_head_id` (the agent's Jefe de ventas: the JEFE_VENTAS beneficiary and the team
 *   a head sees);
 * - `commission_policies`, one per subdivision and role (ASESOR | JEFE_VENTAS | CAPTADOR): base
 *   PORCENTAJE (basis points of the net price) or MONTO_FIJO (céntimos), trigger, tranches (JSON);
 * - `commissions`: one row per sale, beneficiary, role and tranche, PROYECTADA → DEVENGADA →
 *   LIQUIDADA → PAGADA or ANULADA; REVERTIDA rows are negative lines taking back a paid one
 *   (`reverses_id`, unique: a commission is taken back once);
 * - `commission_settlements` with their per-agent totals (`commission_settlement_agents`) and lines
 *   (`commission_settlement_lines`, unique `commission_id`: a commission is in one settlement at most,
 *   which also settles two concurrent settlements racing for it).
 * Permissions: 'Gestionar comisiones y liquidaciones' to the roles that hold the commissions
 * submodule and are not sales roles (the screen was a placeholder: nothing is taken away), and
 * 'Solo sus comisiones y las de su equipo' to the roles named "Asesor…" or "Jefe…" that hold it.
 */
export function administracionCommissionsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('issues_fee_receipts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('sales_head_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('users_sales_head_idx').on('users').column('sales_head_id').execute();

      await db.schema
        .createTable('commission_policies')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('base', 'text', (c) => c.notNull())
        .addColumn('percent_bp', 'integer')
        .addColumn('amount', 'bigint')
        .addColumn('trigger_kind', 'text', (c) => c.notNull().defaultTo('INICIAL_APROBADA'))
        .addColumn('trigger_percent_bp', 'integer')
        .addColumn('tranches', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addUniqueConstraint('commission_policies_subdivision_role_uq', ['subdivision_id', 'role'])
        .addCheckConstraint('commission_policies_role_check', sql.raw(`role in (${quotedList(COMMISSION_ROLES)})`))
        .addCheckConstraint('commission_policies_base_check', sql.raw(`base in (${quotedList(COMMISSION_BASES)})`))
        .addCheckConstraint('commission_policies_trigger_check', sql.raw(`trigger_kind in (${quotedList(COMMISSION_TRIGGERS)})`))
        .addCheckConstraint(
          'commission_policies_figure_check',
          sql.raw(
            `(base = 'PORCENTAJE' and percent_bp between 1 and 10000 and amount is null) or (base = 'MONTO_FIJO' and amount > 0 and percent_bp is null)`,
          ),
        )
        .execute();

      await db.schema
        .createTable('commission_settlements')
        .addColumn('id', 'integer', t.id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('period_from', t.date, (c) => c.notNull())
        .addColumn('period_to', t.date, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('BORRADOR'))
        .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('withholding', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('note', 'text')
        .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('approved_at', t.instant)
        .addColumn('operation_number', 'text')
        .addColumn('paid_on', t.date)
        .addColumn('paid_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('voucher_content_type', 'text')
        .addColumn('voucher_size', 'integer')
        .addColumn('voucher_data', dialect === 'postgres' ? 'bytea' : 'blob')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('commission_settlements_state_check', sql.raw(`state in (${quotedList(SETTLEMENT_STATES)})`))
        .addCheckConstraint('commission_settlements_currency_check', sql.raw(`currency in ('PEN', 'USD')`))
        .addCheckConstraint(
          'commission_settlements_paid_check',
          sql.raw(`state <> 'PAGADA' or (operation_number is not null and paid_on is not null and voucher_data is not null)`),
        )
        .execute();
      await db.schema.createIndex('commission_settlements_state_idx').on('commission_settlements').columns(['state', 'id']).execute();

      await db.schema
        .createTable('commissions')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('policy_id', 'integer', (c) => c.references('commission_policies.id').onDelete('set null'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('tranche', 'integer', (c) => c.notNull())
        .addColumn('tranche_count', 'integer', (c) => c.notNull())
        .addColumn('tranche_share_bp', 'integer', (c) => c.notNull())
        .addColumn('tranche_at', 'text', (c) => c.notNull())
        .addColumn('trigger_kind', 'text', (c) => c.notNull())
        .addColumn('trigger_percent_bp', 'integer')
        .addColumn('base', 'text', (c) => c.notNull())
        .addColumn('percent_bp', 'integer')
        .addColumn('net_price', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reverses_id', 'integer', (c) => c.unique().references('commissions.id'))
        .addColumn('settlement_id', 'integer', (c) => c.references('commission_settlements.id').onDelete('set null'))
        .addColumn('projected_on', t.date, (c) => c.notNull())
        .addColumn('accrued_on', t.date)
        .addColumn('paid_on', t.date)
        .addColumn('annulled_on', t.date)
        .addColumn('reason', 'text')
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('commissions_state_check', sql.raw(`state in (${quotedList(COMMISSION_STATES)})`))
        .addCheckConstraint('commissions_role_check', sql.raw(`role in (${quotedList(COMMISSION_ROLES)})`))
        .addCheckConstraint('commissions_tranche_at_check', sql.raw(`tranche_at in (${quotedList(TRANCHE_MOMENTS)})`))
        .addCheckConstraint('commissions_currency_check', sql.raw(`currency in ('PEN', 'USD')`))
        .addCheckConstraint(
          'commissions_sign_check',
          sql.raw(
            `(state = 'REVERTIDA' and amount <= 0 and reverses_id is not null) or (state <> 'REVERTIDA' and amount >= 0 and reverses_id is null)`,
          ),
        )
        .execute();
      await db.schema.createIndex('commissions_sale_idx').on('commissions').columns(['sale_id', 'state']).execute();
      await db.schema.createIndex('commissions_user_state_idx').on('commissions').columns(['user_id', 'state', 'accrued_on']).execute();
      await db.schema.createIndex('commissions_state_idx').on('commissions').columns(['state', 'sale_id']).execute();
      await db.schema.createIndex('commissions_settlement_idx').on('commissions').columns(['settlement_id']).execute();

      await db.schema
        .createTable('commission_settlement_agents')
        .addColumn('settlement_id', 'integer', (c) => c.notNull().references('commission_settlements.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('issues_fee_receipts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lines', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('gross', 'bigint', (c) => c.notNull())
        .addColumn('withholding', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('net', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('commission_settlement_agents_pk', ['settlement_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('commission_settlement_lines')
        .addColumn('id', 'integer', t.id)
        .addColumn('settlement_id', 'integer', (c) => c.notNull().references('commission_settlements.id').onDelete('cascade'))
        .addColumn('commission_id', 'integer', (c) => c.notNull().unique().references('commissions.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('commission_settlement_lines_settlement_idx')
        .on('commission_settlement_lines')
        .columns(['settlement_id', 'user_id'])
        .execute();

      await sql`insert into role_permissions (role_id, permission)
        select r.id, ${ACTION.gestionarComisiones} from roles r
        where exists (select 1 from role_permissions g where g.role_id = r.id and g.permission = ${SUBMODULE.comisiones})
        and lower(r.name) not like 'asesor%' and lower(r.name) not like 'jefe%'
        and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${ACTION.gestionarComisiones})`.execute(
        db,
      );
      await sql`insert into role_permissions (role_id, permission)
        select r.id, ${SCOPE.soloSusComisiones} from roles r
        where exists (select 1 from role_permissions g where g.role_id = r.id and g.permission = ${SUBMODULE.comisiones})
        and (lower(r.name) like 'asesor%' or lower(r.name) like 'jefe%')
        and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${SCOPE.soloSusComisiones})`.execute(db);
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`delete from role_permissions where permission in (${ACTION.gestionarComisiones}, ${SCOPE.soloSusComisiones})`.execute(db);
      await db.schema.dropTable('commission_settlement_lines').execute();
      await db.schema.dropTable('commission_settlement_agents').execute();
      await db.schema.dropTable('commissions').execute();
      await db.schema.dropTable('commission_settlements').execute();
      await db.schema.dropTable('commission_policies').execute();
      await db.schema.dropIndex('users_sales_head_idx').execute();
      await db.schema.alterTable('users').dropColumn('sales_head_id').execute();
      await db.schema.alterTable('users').dropColumn('issues_fee_receipts').execute();
    },
  };
}
