import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * What Inicio's collections card needs to be cheap on a large database (docs/dashboard.md
 * "Manager cards"; docs/performance.md "Answers kept per revision"):
 * - the index `payments (status, operation_date)`: the month's approved payments (GET
 *   /api/payments?status=APROBADO&from&to, and the card's `collected`) read as one index range
 *   instead of every approved payment;
 * - the row `payments` of `list_revisions` (migration 0021), raised by the database on every write
 *   of a payment that can move a sum of approved payments (a new payment, a change of status,
 *   amount, currency or operation date, a deletion), so the card's answer is kept until it moves.
 *   SQLite: row triggers; PostgreSQL: statement triggers (one raise per statement), as migration
 *   0027 does for Registro de Cuotas.
 */
export function inicioDashboardMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const bump = `update list_revisions set revision = revision + 1 where name = 'payments'`;
  /** SQLite's trigger events on `payments` that change a sum of approved payments. */
  const events = ['insert', 'update of status, amount, currency, operation_date', 'delete'];
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createIndex('payments_status_operation_idx').on('payments').columns(['status', 'operation_date']).execute();
      await sql.raw(`insert into list_revisions (name, revision) values ('payments', 1)`).execute(db);
      if (postgres) {
        await sql
          .raw(`create function payments_revision_bump() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`)
          .execute(db);
        await sql
          .raw(
            `create trigger payments_revision after ${events.join(' or ')} on payments for each statement execute function payments_revision_bump()`,
          )
          .execute(db);
        return;
      }
      for (const [i, event] of events.entries())
        await sql.raw(`create trigger payments_revision_${i} after ${event} on payments begin ${bump}; end`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        await sql.raw(`drop trigger payments_revision on payments`).execute(db);
        await sql.raw(`drop function payments_revision_bump()`).execute(db);
      } else for (const i of events.keys()) await sql.raw(`drop trigger payments_revision_${i}`).execute(db);
      await sql.raw(`delete from list_revisions where name = 'payments'`).execute(db);
      await db.schema.dropIndex('payments_status_operation_idx').execute();
    },
  };
}
