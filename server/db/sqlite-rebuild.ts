import { sql, type Kysely } from 'kysely';

/**
 * Changes a SQLite table's definition where `ALTER TABLE` cannot (a CHECK constraint widened or
 * added), by the procedure SQLite documents for "other kinds of table schema changes"
 * (https://sqlite.org/lang_altertable.html#otheralter): foreign keys off, then in one
 * transaction create the new table from the rewritten `CREATE TABLE`, copy every row, drop the old
 * table, rename the new one, recreate its indexes and triggers, and check the foreign keys.
 * Rows keep their ids, and tables that reference this one keep pointing at it by name.
 *
 * Must run outside a transaction (Kysely runs SQLite migrations without one): `foreign_keys`
 * cannot change inside a transaction, and with it on, dropping the old table would cascade deletes.
 * @param rewrite receives the table's `CREATE TABLE "<table>" (…)` and returns the new one for
 *   the same name; columns it adds need a default, columns it leaves out are dropped (rows are
 *   copied by the names of the columns both tables have).
 * @throws Error when `rewrite` returns the statement unchanged, or a foreign key is broken after
 *   the copy (nothing is changed then: the transaction rolls back).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function rebuildSqliteTable(db: Kysely<any>, table: string, rewrite: (createSql: string) => string): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.transaction().execute(async (trx: Kysely<any>) => {
      const schema = await sql<{ type: string; sql: string }>`
        select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(trx);
      const create = schema.rows.find((r) => r.type === 'table')?.sql;
      if (!create) throw new Error(`rebuildSqliteTable: no table ${table}`);
      const rewritten = rewrite(create);
      if (rewritten === create) throw new Error(`rebuildSqliteTable: nothing to change in ${table}`);
      const temporary = `${table}__rebuild`;
      const head = `CREATE TABLE "${table}"`;
      if (!rewritten.startsWith(head)) throw new Error(`rebuildSqliteTable: the rewrite must start with ${head}`);
      const columnsOf = async (name: string) =>
        (await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(trx)).rows.map((r) => r.name);
      const oldColumns = await columnsOf(table);
      await sql.raw(`CREATE TABLE "${temporary}"${rewritten.slice(head.length)}`).execute(trx);
      const newColumns = new Set(await columnsOf(temporary));
      const columns = oldColumns.filter((c) => newColumns.has(c)).map((c) => sql.id(c));
      await sql`insert into ${sql.table(temporary)} (${sql.join(columns)}) select ${sql.join(columns)} from ${sql.table(table)}`.execute(
        trx,
      );
      await sql`drop table ${sql.table(table)}`.execute(trx);
      await sql`alter table ${sql.table(temporary)} rename to ${sql.table(table)}`.execute(trx);
      for (const { sql: statement } of schema.rows.filter((r) => r.type === 'index' || r.type === 'trigger')) {
        await sql.raw(statement).execute(trx);
      }
      const broken = await sql`select * from pragma_foreign_key_check`.execute(trx);
      if (broken.rows.length > 0)
        throw new Error(`rebuildSqliteTable: ${broken.rows.length} broken foreign keys after rebuilding ${table}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
