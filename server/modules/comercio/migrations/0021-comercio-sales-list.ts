import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/**
 * What the sales list reads instead of computing per request (issue "CRM and sales", its
 * performance clause: page 1 with filters in p95 ≤ 50 ms on 100 000 sales; docs/performance.md
 * "The sales list", second round). Every value below is kept exact by the database itself, in the
 * writing transaction, whichever code path writes (services, seeds, the large-database script):
 *
 * - `sales.subdivision_id`: the subdivision of the sale's lot, not null, pinned to it by a
 *   composite foreign key `(lot_id, subdivision_id) → lots (id, subdivision_id)` with
 *   `on update cascade` (a lot moved to another subdivision carries its sales along). The index
 *   `(subdivision_id, status, sale_date)` answers a subdivision's sales, and a status within it,
 *   in date order without reading `lots`.
 * - `sales.paid`: the sum of the sale's schedule rows' `paid` in céntimos, kept by triggers on
 *   `sale_instalments` (insert, delete, a change of `paid` or `sale_id`). The list no longer sums
 *   ~20 rows per sale.
 * - `sale_counts (subdivision_id, status, type, sales)`: how many sales each subdivision has in
 *   each status and type, kept by triggers on `sales` as `subdivision_lot_counts` is on `lots`
 *   (migration 0012). The list's total, when it filters by nothing else than these, is a sum over at
 *   most 2 000 small rows instead of counting up to 100 000 index entries. Rows may reach zero and
 *   stay; readers sum them.
 * - SQLite only, the text search: two FTS5 tables with the `trigram` tokenizer,
 *   `customer_search (display, document)` (rowid = customer id; `display` the expression of
 *   `displayNameSql`) and `lot_search (code)` (rowid = lot id), kept by triggers on `customers` and
 *   `lots`. A `%text%` search of three characters or more reads their trigram index
 *   (`match '"text"'`) instead of scanning 60 000 names and 100 000 codes (~16 and ~13 ms → ~1.5
 *   and ~0.05 ms). PostgreSQL keeps its LIKE (a `pg_trgm` index needs an extension this
 *   migration does not assume).
 *
 * - `list_revisions (name, revision)`, row `sales`: 1 added on every write that changes what a
 *   sales list page shows — a sale (its `paid` included), its buyers, and the names, documents,
 *   codes and areas the page repeats from customers, lots, subdivisions and users. The route keeps
 *   each page's answer until the revision moves (server/platform/revision-texts.ts, as the lot pages
 *   per `subdivision_revisions`). SQLite: row triggers; PostgreSQL: statement triggers (one bump per
 *   statement; the row's lock orders concurrent writers until they commit).
 *
 * SQLite adds the not-null, foreign-keyed column by {@link rebuildSqliteTable} (rows and ids kept).
 */
export function salesListMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const countAdd = `insert into sale_counts (subdivision_id, status, type, sales) values (new.subdivision_id, new.status, new.type, 1)
     on conflict (subdivision_id, status, type) do update set sales = sale_counts.sales + 1`;
  const countRemove = `update sale_counts set sales = sales - 1
     where subdivision_id = old.subdivision_id and status = old.status and type = old.type`;
  const paidAdd = `update sales set paid = paid + new.paid where id = new.sale_id`;
  const paidRemove = `update sales set paid = paid - old.paid where id = old.sale_id`;
  const bump = `update list_revisions set revision = revision + 1 where name = 'sales'`;
  /** [table, the writes that change a sales page: SQLite's trigger events] */
  const revisionSources: Array<[string, string[]]> = [
    ['sales', ['insert', 'update', 'delete']],
    ['sale_holders', ['insert', 'update', 'delete']],
    ['customers', ['update of name, surname, document_number']],
    ['lots', ['update of code, area_m2']],
    ['subdivisions', ['update of name']],
    ['users', ['update of name, surname']],
  ];
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql.raw(`alter table sales add column "subdivision_id" integer`).execute(db);
      await sql.raw(`alter table sales add column "paid" bigint default 0 not null`).execute(db);
      await sql.raw(`update sales set subdivision_id = (select lots.subdivision_id from lots where lots.id = sales.lot_id)`).execute(db);
      await sql
        .raw(`update sales set paid = coalesce((select sum(i.paid) from sale_instalments i where i.sale_id = sales.id), 0)`)
        .execute(db);
      await sql.raw(`create unique index lots_id_subdivision_uq on lots (id, subdivision_id)`).execute(db);
      const foreignKey = `constraint "sales_lot_subdivision_fk" foreign key ("lot_id", "subdivision_id")
        references "lots" ("id", "subdivision_id") on update cascade`;
      if (postgres) {
        await sql.raw(`alter table sales alter column subdivision_id set not null`).execute(db);
        await sql.raw(`alter table sales add ${foreignKey}`).execute(db);
      } else {
        await rebuildSqliteTable(db, 'sales', (create) => {
          const column = '"subdivision_id" integer';
          if (!create.includes(column) || !create.endsWith(')')) throw new Error('0021: unexpected sales table definition');
          return `${create.slice(0, -1).replace(column, `${column} not null`)}, ${foreignKey})`;
        });
      }
      await sql.raw(`create index sales_subdivision_status_idx on sales (subdivision_id, status, sale_date)`).execute(db);

      await sql
        .raw(
          `create table sale_counts (
            subdivision_id integer not null references subdivisions (id) on delete cascade,
            status text not null,
            type text not null,
            sales integer not null,
            primary key (subdivision_id, status, type))`,
        )
        .execute(db);
      await sql
        .raw(
          `insert into sale_counts (subdivision_id, status, type, sales)
           select subdivision_id, status, type, count(*) from sales group by subdivision_id, status, type`,
        )
        .execute(db);

      await sql.raw(`create table list_revisions (name text primary key, revision integer not null)`).execute(db);
      await sql.raw(`insert into list_revisions (name, revision) values ('sales', 1)`).execute(db);
      if (postgres) {
        await sql
          .raw(`create function sales_list_revision_bump() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`)
          .execute(db);
        for (const [table, events] of revisionSources)
          await sql
            .raw(
              `create trigger ${table}_sales_revision after ${events.join(' or ')} on ${table}
               for each statement execute function sales_list_revision_bump()`,
            )
            .execute(db);
      } else {
        for (const [table, events] of revisionSources)
          for (const [i, event] of events.entries())
            await sql.raw(`create trigger ${table}_sales_revision_${i} after ${event} on ${table} begin ${bump}; end`).execute(db);
      }
      if (postgres) {
        await sql
          .raw(
            `create function sales_keep_counts() returns trigger language plpgsql as $$
             begin
               if tg_op in ('DELETE', 'UPDATE') then ${countRemove}; end if;
               if tg_op in ('INSERT', 'UPDATE') then ${countAdd}; end if;
               return null;
             end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger sales_keep_counts after insert or delete or update of subdivision_id, status, type on sales
             for each row execute function sales_keep_counts()`,
          )
          .execute(db);
        await sql
          .raw(
            `create function sale_instalments_keep_paid() returns trigger language plpgsql as $$
             begin
               if tg_op in ('DELETE', 'UPDATE') then ${paidRemove}; end if;
               if tg_op in ('INSERT', 'UPDATE') then ${paidAdd}; end if;
               return null;
             end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger sale_instalments_keep_paid after insert or delete or update of paid, sale_id on sale_instalments
             for each row execute function sale_instalments_keep_paid()`,
          )
          .execute(db);
        return;
      }

      await sql.raw(`create trigger sales_count_insert after insert on sales begin ${countAdd}; end`).execute(db);
      await sql.raw(`create trigger sales_count_delete after delete on sales begin ${countRemove}; end`).execute(db);
      await sql
        .raw(
          `create trigger sales_count_update after update of subdivision_id, status, type on sales begin ${countRemove}; ${countAdd}; end`,
        )
        .execute(db);
      await sql
        .raw(`create trigger sale_instalments_paid_insert after insert on sale_instalments when new.paid <> 0 begin ${paidAdd}; end`)
        .execute(db);
      await sql
        .raw(`create trigger sale_instalments_paid_delete after delete on sale_instalments when old.paid <> 0 begin ${paidRemove}; end`)
        .execute(db);
      await sql
        .raw(
          `create trigger sale_instalments_paid_update after update of paid, sale_id on sale_instalments begin ${paidRemove}; ${paidAdd}; end`,
        )
        .execute(db);

      const display = `new.name || coalesce(' ' || new.surname, '')`;
      await sql.raw(`create virtual table customer_search using fts5(display, document, tokenize = 'trigram')`).execute(db);
      await sql
        .raw(
          `insert into customer_search (rowid, display, document) select id, name || coalesce(' ' || surname, ''), document_number from customers`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger customers_search_insert after insert on customers begin
             insert into customer_search (rowid, display, document) values (new.id, ${display}, new.document_number); end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger customers_search_update after update of name, surname, document_number on customers begin
             update customer_search set display = ${display}, document = new.document_number where rowid = new.id; end`,
        )
        .execute(db);
      await sql
        .raw(`create trigger customers_search_delete after delete on customers begin delete from customer_search where rowid = old.id; end`)
        .execute(db);

      await sql.raw(`create virtual table lot_search using fts5(code, tokenize = 'trigram')`).execute(db);
      await sql.raw(`insert into lot_search (rowid, code) select id, code from lots`).execute(db);
      await sql
        .raw(
          `create trigger lots_search_insert after insert on lots begin insert into lot_search (rowid, code) values (new.id, new.code); end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger lots_search_update after update of code on lots begin update lot_search set code = new.code where rowid = new.id; end`,
        )
        .execute(db);
      await sql
        .raw(`create trigger lots_search_delete after delete on lots begin delete from lot_search where rowid = old.id; end`)
        .execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const [table, events] of revisionSources) {
        if (postgres) await sql.raw(`drop trigger ${table}_sales_revision on ${table}`).execute(db);
        else for (const i of events.keys()) await sql.raw(`drop trigger ${table}_sales_revision_${i}`).execute(db);
      }
      if (postgres) await sql.raw(`drop function sales_list_revision_bump()`).execute(db);
      await sql.raw(`drop table list_revisions`).execute(db);
      if (postgres) {
        await sql.raw(`drop trigger sale_instalments_keep_paid on sale_instalments`).execute(db);
        await sql.raw(`drop function sale_instalments_keep_paid()`).execute(db);
        await sql.raw(`drop trigger sales_keep_counts on sales`).execute(db);
        await sql.raw(`drop function sales_keep_counts()`).execute(db);
      } else {
        for (const name of [
          'lots_search_insert',
          'lots_search_update',
          'lots_search_delete',
          'customers_search_insert',
          'customers_search_update',
          'customers_search_delete',
          'sale_instalments_paid_insert',
          'sale_instalments_paid_delete',
          'sale_instalments_paid_update',
          'sales_count_insert',
          'sales_count_delete',
          'sales_count_update',
        ])
          await sql.raw(`drop trigger ${name}`).execute(db);
        await sql.raw(`drop table lot_search`).execute(db);
        await sql.raw(`drop table customer_search`).execute(db);
      }
      await sql.raw(`drop table sale_counts`).execute(db);
      await sql.raw(`drop index sales_subdivision_status_idx`).execute(db);
      if (postgres) {
        await sql.raw(`alter table sales drop constraint sales_lot_subdivision_fk`).execute(db);
        await sql.raw(`alter table sales drop column subdivision_id`).execute(db);
        await sql.raw(`alter table sales drop column paid`).execute(db);
      } else {
        await rebuildSqliteTable(db, 'sales', (create) =>
          create
            .replace(/, "subdivision_id" integer not null, "paid" bigint default 0 not null/, '')
            .replace(/, constraint "sales_lot_subdivision_fk"[^)]*\)[^)]*\) on update cascade\)$/, ')'),
        );
      }
      await sql.raw(`drop index lots_id_subdivision_uq`).execute(db);
    },
  };
}
