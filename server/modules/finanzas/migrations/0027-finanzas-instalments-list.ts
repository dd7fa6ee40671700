import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * The revision of Registro de Cuotas (issue 16 "Performance": over 2 000 000 instalments, filtered
 * page 1 in p95 ≤ 50 ms at 20 concurrent; docs/performance.md "Registro de Cuotas"): the row
 * `instalments` of `list_revisions` (migration 0021), raised by the database on every write that
 * changes what a page or the totals show, so the route keeps each answer until it moves (as the
 * sales list does, server/platform/revision-texts.ts). The sources: the instalments themselves
 * (payments, the daily late-fee job, waivers, new and annulled sales' schedules), the sales (their
 * status, currency, subdivision, lot), their buyers, and the names, documents, codes and grace days
 * a page repeats. SQLite: row triggers; PostgreSQL: statement triggers (one raise per statement).
 */
export function finanzasInstalmentsListMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const bump = `update list_revisions set revision = revision + 1 where name = 'instalments'`;
  /** [table, the writes that change the register: SQLite's trigger events] */
  const sources: Array<[string, string[]]> = [
    ['sale_instalments', ['insert', 'update', 'delete']],
    ['sales', ['insert', 'update of status, currency, subdivision_id, lot_id', 'delete']],
    ['sale_holders', ['insert', 'update', 'delete']],
    ['customers', ['update of name, surname, document_number']],
    ['lots', ['update of code']],
    ['subdivisions', ['update of name, late_fee_grace_days']],
  ];
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql.raw(`insert into list_revisions (name, revision) values ('instalments', 1)`).execute(db);
      if (postgres) {
        await sql
          .raw(`create function instalments_list_revision_bump() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`)
          .execute(db);
        for (const [table, events] of sources)
          await sql
            .raw(
              `create trigger ${table}_instalments_revision after ${events.join(' or ')} on ${table}
               for each statement execute function instalments_list_revision_bump()`,
            )
            .execute(db);
        return;
      }
      for (const [table, events] of sources)
        for (const [i, event] of events.entries())
          await sql.raw(`create trigger ${table}_instalments_revision_${i} after ${event} on ${table} begin ${bump}; end`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const [table, events] of sources) {
        if (postgres) await sql.raw(`drop trigger ${table}_instalments_revision on ${table}`).execute(db);
        else for (const i of events.keys()) await sql.raw(`drop trigger ${table}_instalments_revision_${i}`).execute(db);
      }
      if (postgres) await sql.raw(`drop function instalments_list_revision_bump()`).execute(db);
      await sql.raw(`delete from list_revisions where name = 'instalments'`).execute(db);
    },
  };
}
