import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * A revision number per subdivision that changes with anything its lot maps show (issue "API
 * throughput": the 1 200-lot map was built and serialised on every request, ~200 ms under load;
 * docs/performance.md "Maps: ETag and compressed answers kept"). `subdivision_revisions` holds one
 * row per subdivision (made with it, removed with it); database triggers add 1 to it on every
 * insert, update or delete of one of its lots, on every update of one of its blocks (their names
 * are on the map) and of the subdivision itself — whichever code path writes. The server keeps
 * each map's JSON text per revision (server/platform/revision-texts.ts).
 *
 * The triggers only UPDATE the row (it always exists): a subdivision's deletion, which cascades to
 * its lots, never re-creates it.
 */
export function mapRevisionsMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const bump = (id: string) => `update subdivision_revisions set revision = revision + 1 where subdivision_id = ${id}`;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql
        .raw(
          `create table subdivision_revisions (
            subdivision_id integer not null primary key references subdivisions (id) on delete cascade,
            revision integer not null)`,
        )
        .execute(db);
      await sql.raw(`insert into subdivision_revisions (subdivision_id, revision) select id, 1 from subdivisions`).execute(db);
      if (postgres) {
        await sql
          .raw(
            `create function subdivision_revision_bump() returns trigger language plpgsql as $$
             begin
               if tg_table_name = 'subdivisions' then
                 if tg_op = 'INSERT' then
                   insert into subdivision_revisions (subdivision_id, revision) values (new.id, 1);
                 else
                   ${bump('new.id')};
                 end if;
               else
                 if tg_op in ('UPDATE', 'DELETE') then ${bump('old.subdivision_id')}; end if;
                 if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.subdivision_id <> old.subdivision_id) then
                   ${bump('new.subdivision_id')};
                 end if;
               end if;
               return null;
             end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger subdivisions_revision after insert or update on subdivisions for each row execute function subdivision_revision_bump()`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger lots_revision after insert or update or delete on lots for each row execute function subdivision_revision_bump()`,
          )
          .execute(db);
        await sql
          .raw(`create trigger blocks_revision after update on blocks for each row execute function subdivision_revision_bump()`)
          .execute(db);
        return;
      }
      const triggers = [
        `create trigger subdivisions_revision_insert after insert on subdivisions begin
           insert into subdivision_revisions (subdivision_id, revision) values (new.id, 1); end`,
        `create trigger subdivisions_revision_update after update on subdivisions begin ${bump('new.id')}; end`,
        `create trigger lots_revision_insert after insert on lots begin ${bump('new.subdivision_id')}; end`,
        `create trigger lots_revision_delete after delete on lots begin ${bump('old.subdivision_id')}; end`,
        `create trigger lots_revision_update after update on lots begin
           ${bump('old.subdivision_id')};
           update subdivision_revisions set revision = revision + 1 where subdivision_id = new.subdivision_id and new.subdivision_id <> old.subdivision_id; end`,
        `create trigger blocks_revision_update after update on blocks begin ${bump('old.subdivision_id')}; end`,
      ];
      for (const statement of triggers) await sql.raw(statement).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        for (const [name, table] of [
          ['subdivisions_revision', 'subdivisions'],
          ['lots_revision', 'lots'],
          ['blocks_revision', 'blocks'],
        ])
          await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
        await sql`drop function subdivision_revision_bump()`.execute(db);
      } else {
        for (const name of [
          'subdivisions_revision_insert',
          'subdivisions_revision_update',
          'lots_revision_insert',
          'lots_revision_delete',
          'lots_revision_update',
          'blocks_revision_update',
        ])
          await sql.raw(`drop trigger ${name}`).execute(db);
      }
      await sql`drop table subdivision_revisions`.execute(db);
    },
  };
}
