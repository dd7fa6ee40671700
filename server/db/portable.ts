/** Helpers that keep repository code identical on SQLite and PostgreSQL. */
import { SqliteAdapter, type Kysely } from 'kysely';
import type { DB, Flag } from './database';

/** Boolean → 0/1 column value (see `database.ts` conventions). */
export function toFlag(value: boolean): Flag {
  return value ? 1 : 0;
}

/** 0/1 column value → boolean (also accepts a real boolean, should a driver return one). */
export function fromFlag(value: Flag | boolean | number): boolean {
  return value === true || value === 1;
}

/**
 * True when `error` is a unique-constraint violation on either dialect
 * (better-sqlite3 `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * Runs `fn` in a transaction, or directly in the caller's one when `db` already is a transaction
 * (Kysely does not nest them), so composable writes stay atomic either way.
 */
export function inTransaction<T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * True when `db` talks to SQLite (its adapter is Kysely's `SqliteAdapter`), for the few reads that
 * use an SQLite-only structure (the FTS5 search tables of migration 0021); transactions included.
 */
export function isSqlite(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
