import type { Insertable, Kysely } from 'kysely';
import type { DB } from './database';

/**
 * Bulk inserts (docs/testing.md "The demo seed"): many rows in few statements, so seeding thousands
 * of rows costs a few round trips instead of one per row — on PostgreSQL each statement is a round
 * trip to the server, on SQLite each is a statement compiled and prepared.
 */

/**
 * Bound parameters per statement we allow ourselves: SQLite's default SQLITE_MAX_VARIABLE_NUMBER is
 * 32 766 (since 3.32; better-sqlite3 bundles a newer one) and PostgreSQL's wire protocol carries at
 * most 65 535; the smaller, less a margin.
 */
export const MAX_BOUND_PARAMETERS = 30_000;

/** Rows per statement for rows of `columns` values each (at least 1, at most 1 000). */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.min(1_000, Math.floor(MAX_BOUND_PARAMETERS / Math.max(1, columns))));
}

/**
 * Inserts `rows` into `table` in multi-row statements under {@link MAX_BOUND_PARAMETERS}. Rows must
 * share one set of columns (the first row's are counted). Runs on the given connection or
 * transaction; does nothing for no rows.
 */
export async function insertInChunks<T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  rows: readonly Insertable<DB[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const size = rowsPerStatement(Object.keys(rows[0]!).length);
  for (let k = 0; k < rows.length; k += size) {
    await db
      .insertInto(table)
      .values(rows.slice(k, k + size))
      .execute();
  }
}
