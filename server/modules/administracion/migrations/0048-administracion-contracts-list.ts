import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * The revision of Registro de Contratos (page 1 in p95 ≤ 50 ms at 20 connections, as served;
 * docs/performance.md "Registro de Contratos"): the row `contracts` of `list_revisions` (migration
 * 0021), raised by the database on every write that changes what a page of GET /api/contracts shows
 * or which contracts a filter finds, so the route keeps each answer until it moves (as the sales list
 * and Registro de Cuotas do, server/platform/revision-texts.ts). The sources: the contracts
 * themselves (made, corrected, issued, signed, annulled, resolved, deleted), their sales (status,
 * type, currency, price, agent, lot, subdivision), the sales' titulars, and the names, codes, template
 * versions and signature days a page repeats. SQLite: row triggers; PostgreSQL: statement triggers
 * (one raise per statement).
 *
 * And two indexes for the pages built after a write (measured on the large database's 84 511
 * contracts, whose rows carry their PDFs: a scan of `contracts` reads them):
 * - `contracts_sale_created_idx (sale_id, created_at, id)`: a subdivision's or an agent's contracts
 *   are `sale_id in (their sales)` on the contracts alone, counted and paged on this index (the
 *   count of a subdivision's contracts scanned every contract row: 818 → 0.6 ms);
 * - `contracts_state_issued_idx (state, issued_at, company_id, created_at, id)` in place of 0043's
 *   `contracts_state_idx (state, issued_at)`: the signatures overdue are counted on the index alone
 *   (67 → 1.4 ms), and the job that notifies them keeps its prefix.
 */
export function administracionContractsListMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const bump = `update list_revisions set revision = revision + 1 where name = 'contracts'`;
  /** [table, the writes that change the register: SQLite's trigger events] */
  const sources: Array<[string, string[]]> = [
    ['contracts', ['insert', 'update', 'delete']],
    ['sales', ['update of status, type, currency, final_price, agent_id, lot_id, subdivision_id', 'delete']],
    ['sale_holders', ['insert', 'update', 'delete']],
    ['customers', ['update of name, surname']],
    ['lots', ['update of code']],
    ['subdivisions', ['update of name']],
    ['contract_templates', ['update of name, version_number']],
    ['companies', ['update of contract_signature_days']],
    ['users', ['update of name, surname']],
  ];
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createIndex('contracts_sale_created_idx').on('contracts').columns(['sale_id', 'created_at', 'id']).execute();
      await db.schema.dropIndex('contracts_state_idx').execute();
      await db.schema
        .createIndex('contracts_state_issued_idx')
        .on('contracts')
        .columns(['state', 'issued_at', 'company_id', 'created_at', 'id'])
        .execute();
      await sql.raw(`insert into list_revisions (name, revision) values ('contracts', 1)`).execute(db);
      if (postgres) {
        await sql
          .raw(`create function contracts_list_revision_bump() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`)
          .execute(db);
        for (const [table, events] of sources)
          await sql
            .raw(
              `create trigger ${table}_contracts_revision after ${events.join(' or ')} on ${table}
               for each statement execute function contracts_list_revision_bump()`,
            )
            .execute(db);
        return;
      }
      for (const [table, events] of sources)
        for (const [i, event] of events.entries())
          await sql.raw(`create trigger ${table}_contracts_revision_${i} after ${event} on ${table} begin ${bump}; end`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const [table, events] of sources) {
        if (postgres) await sql.raw(`drop trigger ${table}_contracts_revision on ${table}`).execute(db);
        else for (const i of events.keys()) await sql.raw(`drop trigger ${table}_contracts_revision_${i}`).execute(db);
      }
      if (postgres) await sql.raw(`drop function contracts_list_revision_bump()`).execute(db);
      await sql.raw(`delete from list_revisions where name = 'contracts'`).execute(db);
      await db.schema.dropIndex('contracts_state_issued_idx').execute();
      await db.schema.createIndex('contracts_state_idx').on('contracts').columns(['state', 'issued_at']).execute();
      await db.schema.dropIndex('contracts_sale_created_idx').execute();
    },
  };
}
