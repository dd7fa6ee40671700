import { sql, type Kysely, type Migration } from 'kysely';
import { ACTION } from '../../../../src/schemas/permissions';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';
import { instalmentCountTriggers } from '../../finanzas/migrations/0026-finanzas-instalment-counts';

/** The sale statuses before this migration, and after it (RESUELTA added). */
const STATUSES_BEFORE = ['REGISTRADA', 'INICIAL_PENDIENTE', 'EN_CUOTAS', 'CANCELADA', 'ANULADA'] as const;
const STATUSES_AFTER = [...STATUSES_BEFORE, 'RESUELTA'] as const;
/** The column this migration adds to `sale_instalments` (no CHECK, so both dialects' `down` can drop it in place). */
const SCHEDULE_NUMBER_COLUMN = `"schedule_number" integer default 1 not null`;

/**
 * Rescission (resolución por incumplimiento, Código Civil arts. 1561–1563) and rescheduling
 * (adenda de reprogramación) of sales (docs/domain.md "Rescission", "Rescheduling (adenda)").
 * Both dialects.
 *
 * - Sale status **RESUELTA**: the CHECK `sales_status_check` takes it (PostgreSQL: the constraint is
 *   replaced; SQLite: the table is rebuilt by {@link rebuildSqliteTable}, rows, ids, indexes and
 *   triggers kept — skipped when the table already takes it, as a database created after this
 *   migration's code is in place does). A RESUELTA sale frees its lot as an ANULADA one does: the
 *   unique partial index `sales_live_lot_uq` (one live sale per lot) now leaves out both, and the
 *   instalment counts of Registro de Cuotas (migration 0026's triggers, rebuilt here) count neither.
 * - `sale_rescissions`: one per resolved sale — the overdue instalments counted and the threshold
 *   that allowed it (art. 1561), the rows still unpaid and what they owed, the approved money
 *   `paid` on the sale, the penalty percent and the penalty kept (art. 1563), the refund owed, the
 *   detail of the overdue rows (JSON text, for the letter of art. 1429), the settlement that took
 *   the money off the sale (`sale_settlements`, REEMBOLSO; null when nothing was paid), the reason,
 *   the approver (a user holding 'Resolver contratos'), who and when. The database keeps the money
 *   whole: `paid = penalty + refund`.
 * - Rescheduling keeps every schedule: `sale_instalments.schedule_number` (1 = the sale's own
 *   schedule, n + 1 after the n-th adenda) says which schedule a live row came from;
 *   `sale_schedules` + `sale_schedule_rows` hold each superseded schedule exactly as it stood
 *   (read-only copies, with what was paid and the late fees); `sale_reschedules` records each
 *   adenda: the schedule it replaced, the open balance (capital not yet paid), the late fees owed
 *   and whether they were carried into the new schedule or waived, the terms (method, instalments,
 *   monthly rate, first due date), the interest and total of the new rows, the reason, who and
 *   when. CHECKs: `financed = balance + carried fees`, `total = financed + total_interest`.
 * - Permissions 'Resolver contratos' and 'Reprogramar ventas' to the existing roles that should
 *   have them (as the demo roles matrix, server/db/seed.ts): the Administrador and every role
 *   that supervises leads and has Ventas; 'Reprogramar ventas' also to roles with Ventas and Pagos
 *   (collections).
 */
export function rescissionRescheduleMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const postgres = dialect === 'postgres';
  const liveLotIndex = (ended: readonly string[]) =>
    `create unique index sales_live_lot_uq on sales (lot_id) where status not in (${quotedList(ended)})`;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function setStatusCheck(db: Kysely<any>, statuses: readonly string[]): Promise<void> {
    const check = `status in (${quotedList(statuses)})`;
    if (postgres) {
      await sql.raw(`alter table sales drop constraint sales_status_check`).execute(db);
      await sql.raw(`alter table sales add constraint sales_status_check check (${check})`).execute(db);
      return;
    }
    const current = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'sales'`.execute(db);
    const create = current.rows[0]?.sql ?? '';
    const pattern = /("sales_status_check" check \()status in \([^)]*\)(\))/;
    if (!pattern.test(create)) throw new Error('0045: unexpected sales table definition');
    if (create.replace(pattern, `$1${check}$2`) === create) return;
    // Triggers of other tables that name `sales` (0021's paid sums, 0026's counts) would fail
    // SQLite's schema check when the rebuilt table is renamed: set aside and put back as they were.
    const triggers = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'trigger' and tbl_name <> 'sales'`.execute(db);
    const naming = triggers.rows.filter((r) => /\bsales\b/i.test(r.sql));
    for (const r of naming) await sql.raw(`drop trigger "${r.name}"`).execute(db);
    try {
      await rebuildSqliteTable(db, 'sales', (text) => text.replace(pattern, `$1${check}$2`));
    } finally {
      for (const r of naming) await sql.raw(r.sql).execute(db);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function setCountTriggers(db: Kysely<any>, from: readonly string[], to: readonly string[]): Promise<void> {
    for (const statement of instalmentCountTriggers(dialect, from).drop) await sql.raw(statement).execute(db);
    for (const statement of instalmentCountTriggers(dialect, to).create) await sql.raw(statement).execute(db);
    // Recount from the rows (cheap next to the rebuild; exact whatever the statuses were).
    await sql.raw(`delete from instalment_counts`).execute(db);
    await sql
      .raw(
        `insert into instalment_counts (subdivision_id, status, instalments)
         select s.subdivision_id, i.status, count(*) from sale_instalments i inner join sales s on s.id = i.sale_id
         where s.status not in (${quotedList(to)}) group by s.subdivision_id, i.status`,
      )
      .execute(db);
  }

  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await setStatusCheck(db, STATUSES_AFTER);
      await sql.raw(`drop index sales_live_lot_uq`).execute(db);
      await sql.raw(liveLotIndex(['ANULADA', 'RESUELTA'])).execute(db);
      await setCountTriggers(db, ['ANULADA'], ['ANULADA', 'RESUELTA']);

      await sql.raw(`alter table sale_instalments add column ${SCHEDULE_NUMBER_COLUMN}`).execute(db);

      await db.schema
        .createTable('sale_rescissions')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().unique().references('sales.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('overdue_instalments', 'integer', (c) => c.notNull())
        .addColumn('required_overdue', 'integer', (c) => c.notNull())
        .addColumn('unpaid_instalments', 'integer', (c) => c.notNull())
        .addColumn('unpaid_amount', 'bigint', (c) => c.notNull())
        .addColumn('paid', 'bigint', (c) => c.notNull())
        .addColumn('penalty_pct', 'integer', (c) => c.notNull())
        .addColumn('penalty', 'bigint', (c) => c.notNull())
        .addColumn('refund', 'bigint', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('settlement_id', 'integer', (c) => c.references('sale_settlements.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('sale_rescissions_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint(
          'sale_rescissions_counts_check',
          sql`required_overdue >= 1 and overdue_instalments >= required_overdue and unpaid_instalments >= overdue_instalments and unpaid_amount > 0`,
        )
        .addCheckConstraint(
          'sale_rescissions_amounts_check',
          sql`paid >= 0 and penalty >= 0 and refund >= 0 and paid = penalty + refund and penalty_pct between 0 and 100`,
        )
        .addCheckConstraint('sale_rescissions_settlement_check', sql`(paid = 0) = (settlement_id is null)`)
        .execute();

      await db.schema
        .createTable('sale_schedules')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('superseded_at', t.instant, (c) => c.notNull())
        .addUniqueConstraint('sale_schedules_sale_number_uq', ['sale_id', 'number'])
        .addCheckConstraint('sale_schedules_number_check', sql`number >= 1`)
        .execute();
      await db.schema
        .createTable('sale_schedule_rows')
        .addColumn('schedule_id', 'integer', (c) => c.notNull().references('sale_schedules.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('capital', 'bigint', (c) => c.notNull())
        .addColumn('interest', 'bigint', (c) => c.notNull())
        .addColumn('paid', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('late_fee_accrued', 'bigint', (c) => c.notNull())
        .addColumn('late_fee_paid', 'bigint', (c) => c.notNull())
        .addColumn('late_fee_waived', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sale_schedule_rows_pk', ['schedule_id', 'kind', 'number'])
        .addCheckConstraint('sale_schedule_rows_amounts_check', sql`amount = capital + interest and paid between 0 and amount`)
        .execute();

      await db.schema
        .createTable('sale_reschedules')
        .addColumn('id', 'integer', t.id)
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('schedule_number', 'integer', (c) => c.notNull())
        .addColumn('previous_schedule_id', 'integer', (c) => c.notNull().references('sale_schedules.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('late_fee_mode', 'text', (c) => c.notNull())
        .addColumn('late_fee_amount', 'bigint', (c) => c.notNull())
        .addColumn('financed', 'bigint', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('instalments', 'integer', (c) => c.notNull())
        .addColumn('monthly_rate_percent', 'text', (c) => c.notNull())
        .addColumn('first_due_date', 'text', (c) => c.notNull())
        .addColumn('total_interest', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addUniqueConstraint('sale_reschedules_sale_number_uq', ['sale_id', 'schedule_number'])
        .addCheckConstraint('sale_reschedules_currency_check', sql`currency in ('PEN', 'USD')`)
        .addCheckConstraint('sale_reschedules_mode_check', sql`late_fee_mode in ('CARRY', 'WAIVE')`)
        .addCheckConstraint('sale_reschedules_method_check', sql`method in ('SIN_INTERES', 'INTERES_SIMPLE', 'FRANCES')`)
        .addCheckConstraint(
          'sale_reschedules_amounts_check',
          sql`schedule_number >= 2 and balance > 0 and late_fee_amount >= 0 and instalments between 1 and 360 and total_interest >= 0
            and financed = balance + (case when late_fee_mode = 'CARRY' then late_fee_amount else 0 end)
            and total = financed + total_interest`,
        )
        .execute();

      const grant = (permission: string, where: string) =>
        sql`insert into role_permissions (role_id, permission)
          select r.id, ${permission} from roles r
          where (${sql.raw(where)})
          and exists (select 1 from role_permissions g where g.role_id = r.id and g.permission = 'Acceso submódulo ventas')
          and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${permission})`.execute(db);
      const supervisor = `r.name = 'Administrador' or exists (select 1 from role_permissions s where s.role_id = r.id and s.permission = 'Supervisar leads')`;
      await grant(ACTION.resolverContratos, supervisor);
      await grant(
        ACTION.reprogramarVentas,
        `${supervisor} or exists (select 1 from role_permissions s where s.role_id = r.id and s.permission = 'Acceso submódulo pagos')`,
      );
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`delete from role_permissions where permission in (${ACTION.resolverContratos}, ${ACTION.reprogramarVentas})`.execute(db);
      await db.schema.dropTable('sale_reschedules').execute();
      await db.schema.dropTable('sale_schedule_rows').execute();
      await db.schema.dropTable('sale_schedules').execute();
      await db.schema.dropTable('sale_rescissions').execute();
      await sql.raw(`alter table sale_instalments drop column schedule_number`).execute(db);
      await setCountTriggers(db, ['ANULADA', 'RESUELTA'], ['ANULADA']);
      await sql.raw(`drop index sales_live_lot_uq`).execute(db);
      await sql.raw(`create unique index sales_live_lot_uq on sales (lot_id) where status <> 'ANULADA'`).execute(db);
      await setStatusCheck(db, STATUSES_BEFORE);
    },
  };
}
