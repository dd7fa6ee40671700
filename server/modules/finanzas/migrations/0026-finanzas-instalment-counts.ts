import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * How many instalments of the sales not ANULADA each subdivision has in each status (issue 16,
 * "/FINANZAS/RegistroCuotas over 2 000 000 instalments, filtered page 1"; docs/decisions.md
 * "Registro de Cuotas and reminders"): `instalment_counts (subdivision_id, status, instalments)`,
 * kept by database triggers in the writing transaction, whichever code path writes, as
 * `sale_counts` is (migration 0021). The register's total, when it filters by nothing else than
 * status and subdivision, is a sum over these rows instead of counting up to 2 000 000 index
 * entries (~740 ms). Rows may reach zero and stay; readers sum them.
 *
 * What moves a count: an instalment inserted, deleted, or changing status or sale; a sale changing
 * subdivision (a lot moved: `on update cascade`) or entering or leaving ANULADA; a sale deleted
 * (before its instalments go by cascade, whose own triggers then find no sale and do nothing). A
 * change of figures alone (the daily job's `late_fee_accrued`) moves nothing: the update trigger
 * fires only when the status or the sale changes. Both dialects (SQLite: row triggers with WHEN;
 * PostgreSQL: plpgsql functions).
 */
export function finanzasInstalmentCountsMigration(dialect: DialectName): Migration {
  const triggers = instalmentCountTriggers(dialect, ['ANULADA']);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql
        .raw(
          `create table instalment_counts (
            subdivision_id integer not null references subdivisions (id) on delete cascade,
            status text not null,
            instalments integer not null,
            primary key (subdivision_id, status))`,
        )
        .execute(db);
      await sql
        .raw(
          `insert into instalment_counts (subdivision_id, status, instalments)
           select s.subdivision_id, i.status, count(*) from sale_instalments i inner join sales s on s.id = i.sale_id
           where s.status <> 'ANULADA' group by s.subdivision_id, i.status`,
        )
        .execute(db);
      for (const statement of triggers.create) await sql.raw(statement).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const statement of triggers.drop) await sql.raw(statement).execute(db);
      await sql.raw(`drop table instalment_counts`).execute(db);
    },
  };
}

/**
 * The triggers that keep `instalment_counts` (see {@link finanzasInstalmentCountsMigration}), for
 * the sales whose status is not one of `closed` (sales that no longer owe: ANULADA, and from
 * migration 0045 RESUELTA too). `create` and `drop` are statements in order.
 */
export function instalmentCountTriggers(dialect: DialectName, closed: readonly string[]): { create: string[]; drop: string[] } {
  const postgres = dialect === 'postgres';
  const list = closed.map((v) => `'${v}'`).join(', ');
  const counted = (sale: string) => `s.id = ${sale} and s.status not in (${list})`;
  const add = (row: 'new' | 'old') =>
    `insert into instalment_counts (subdivision_id, status, instalments)
       select s.subdivision_id, ${row}.status, 1 from sales s where ${counted(`${row}.sale_id`)}
       on conflict (subdivision_id, status) do update set instalments = instalment_counts.instalments + 1`;
  const remove = (row: 'new' | 'old') =>
    `update instalment_counts set instalments = instalments - 1
       where status = ${row}.status
         and subdivision_id = (select s.subdivision_id from sales s where ${counted(`${row}.sale_id`)})`;
  /** A sale's instalments leave (`old`) or join (`new`) the counts. */
  const saleRemove = `update instalment_counts set instalments = instalments -
       (select count(*) from sale_instalments i where i.sale_id = old.id and i.status = instalment_counts.status)
     where subdivision_id = old.subdivision_id and old.status not in (${list})`;
  const saleAdd = `insert into instalment_counts (subdivision_id, status, instalments)
       select new.subdivision_id, i.status, count(*) from sale_instalments i where i.sale_id = new.id and new.status not in (${list}) group by i.status
       on conflict (subdivision_id, status) do update set instalments = instalment_counts.instalments + excluded.instalments`;
  const saleMoved = `(old.status in (${list})) <> (new.status in (${list})) or old.subdivision_id <> new.subdivision_id`;
  if (postgres)
    return {
      create: [
        `create function sale_instalments_keep_counts() returns trigger language plpgsql as $$
         begin
           if tg_op in ('DELETE', 'UPDATE') then ${remove('old')}; end if;
           if tg_op in ('INSERT', 'UPDATE') then ${add('new')}; end if;
           return null;
         end $$`,
        `create trigger sale_instalments_counts after insert or delete on sale_instalments
         for each row execute function sale_instalments_keep_counts()`,
        `create trigger sale_instalments_counts_update after update of status, sale_id on sale_instalments
         for each row when (old.status is distinct from new.status or old.sale_id is distinct from new.sale_id)
         execute function sale_instalments_keep_counts()`,
        `create function sales_keep_instalment_counts() returns trigger language plpgsql as $$
         begin
           ${saleRemove};
           if tg_op = 'UPDATE' then ${saleAdd}; return null; end if;
           return old;
         end $$`,
        `create trigger sales_instalment_counts after update of status, subdivision_id on sales
         for each row when (${saleMoved}) execute function sales_keep_instalment_counts()`,
        `create trigger sales_instalment_counts_delete before delete on sales
         for each row execute function sales_keep_instalment_counts()`,
      ],
      drop: [
        `drop trigger sales_instalment_counts_delete on sales`,
        `drop trigger sales_instalment_counts on sales`,
        `drop function sales_keep_instalment_counts()`,
        `drop trigger sale_instalments_counts_update on sale_instalments`,
        `drop trigger sale_instalments_counts on sale_instalments`,
        `drop function sale_instalments_keep_counts()`,
      ],
    };
  return {
    create: [
      `create trigger sale_instalments_counts_insert after insert on sale_instalments begin ${add('new')}; end`,
      `create trigger sale_instalments_counts_delete after delete on sale_instalments begin ${remove('old')}; end`,
      `create trigger sale_instalments_counts_update after update of status, sale_id on sale_instalments
       when old.status <> new.status or old.sale_id <> new.sale_id
       begin ${remove('old')}; ${add('new')}; end`,
      `create trigger sales_instalment_counts_update after update of status, subdivision_id on sales when ${saleMoved}
       begin ${saleRemove}; ${saleAdd}; end`,
      `create trigger sales_instalment_counts_delete before delete on sales begin ${saleRemove}; end`,
    ],
    drop: [
      'sales_instalment_counts_delete',
      'sales_instalment_counts_update',
      'sale_instalments_counts_update',
      'sale_instalments_counts_delete',
      'sale_instalments_counts_insert',
    ].map((name) => `drop trigger ${name}`),
  };
}
