import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * Lot counts kept per subdivision and status (issue "API throughput": the subdivisions list counted
 * ~24 000 lots per page of 20 on the large database, 1/82 of /api/health's requests per second;
 * docs/performance.md "The large database"). `subdivision_lot_counts` holds, for each subdivision and
 * status, the number of lots (`lots`) and their summed area in m² (`area_m2`). Database triggers
 * on `lots` keep it exact on every write — insert, delete (a subdivision's cascade too), a change
 * of status, area or subdivision — whichever code path makes it (services, the import, the seed,
 * later the sales), in the writing transaction. Existing lots are counted once here. Rows may
 * reach zero lots and stay; readers skip them.
 *
 * SQLite: three row triggers with an upsert. PostgreSQL: one plpgsql row trigger function; the
 * upsert takes the row lock of its (subdivision, status), so concurrent writers queue on it
 * instead of losing a count.
 */
export function lotCountsMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const real = postgres ? 'double precision' : 'real';
  const add = `insert into subdivision_lot_counts (subdivision_id, status, lots, area_m2) values (new.subdivision_id, new.status, 1, new.area_m2)
     on conflict (subdivision_id, status) do update set lots = subdivision_lot_counts.lots + 1, area_m2 = subdivision_lot_counts.area_m2 + excluded.area_m2`;
  const remove = `update subdivision_lot_counts set lots = lots - 1, area_m2 = area_m2 - old.area_m2
     where subdivision_id = old.subdivision_id and status = old.status`;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql
        .raw(
          `create table subdivision_lot_counts (
            subdivision_id integer not null references subdivisions (id) on delete cascade,
            status text not null,
            lots integer not null,
            area_m2 ${real} not null,
            primary key (subdivision_id, status))`,
        )
        .execute(db);
      await sql
        .raw(
          `insert into subdivision_lot_counts (subdivision_id, status, lots, area_m2)
           select subdivision_id, status, count(*), sum(area_m2) from lots group by subdivision_id, status`,
        )
        .execute(db);
      if (postgres) {
        await sql
          .raw(
            `create function lots_keep_counts() returns trigger language plpgsql as $$
             begin
               if tg_op in ('DELETE', 'UPDATE') then ${remove}; end if;
               if tg_op in ('INSERT', 'UPDATE') then ${add}; end if;
               return null;
             end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger lots_keep_counts after insert or delete or update of subdivision_id, status, area_m2 on lots
             for each row execute function lots_keep_counts()`,
          )
          .execute(db);
        return;
      }
      await sql.raw(`create trigger lots_count_insert after insert on lots begin ${add}; end`).execute(db);
      await sql.raw(`create trigger lots_count_delete after delete on lots begin ${remove}; end`).execute(db);
      await sql
        .raw(`create trigger lots_count_update after update of subdivision_id, status, area_m2 on lots begin ${remove}; ${add}; end`)
        .execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        await sql`drop trigger lots_keep_counts on lots`.execute(db);
        await sql`drop function lots_keep_counts()`.execute(db);
      } else {
        for (const name of ['lots_count_insert', 'lots_count_delete', 'lots_count_update'])
          await sql.raw(`drop trigger ${name}`).execute(db);
      }
      await sql`drop table subdivision_lot_counts`.execute(db);
    },
  };
}
