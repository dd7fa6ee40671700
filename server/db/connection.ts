import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { AppConfig } from '../config';
import type { DB } from './database';
import { LruMap } from '../platform/lru-map';

/** Which SQL engine a connection talks to. */
export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely instance and its dialect (migrations pick column types by it). */
export interface DatabaseHandle {
  db: Kysely<DB>;
  dialect: DialectName;
}

const { builtins } = pg.types;
const parseTimestamptz = pg.types.getTypeParser(builtins.TIMESTAMPTZ);

/**
 * PostgreSQL result parsers matching SQLite's values (see `database.ts`): timestamptz → ISO 8601
 * UTC string, date → 'YYYY-MM-DD' string, int8 (count) → number. Scoped to our pool, not global.
 */
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    switch (oid) {
      case builtins.TIMESTAMPTZ:
        return (value: string) => (parseTimestamptz(value) as Date).toISOString();
      case builtins.DATE:
        return (value: string) => value;
      case builtins.INT8:
        return (value: string) => Number(value);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Opens the database of `config` (docs/architecture.md): PostgreSQL through a `pg.Pool`
 * when `databaseUrl` is set, otherwise SQLite (better-sqlite3) at `databasePath` with WAL journal
 * and foreign keys on; the file's directory is created when missing.
 * Close it with `handle.db.destroy()`.
 */
export function openDatabase(config: Pick<AppConfig, 'databasePath' | 'databaseUrl'>): DatabaseHandle {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, types: pgTypes, max: 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', (error) => console.error('PostgreSQL idle client error:', error.message));
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  if (config.databasePath !== ':memory:') mkdirSync(dirname(config.databasePath), { recursive: true });
  const sqlite = new SQLite(config.databasePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
}

/** Prepared statements kept per connection (the app issues a few hundred distinct SQL texts). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely's SqliteDialect sees it, with prepared statements reused by SQL
 * text (issue "API throughput": Kysely prepares every query again, ~10 % of a list call's CPU in
 * the profile, docs/performance.md). A statement still busy (an iterator not finished) is not
 * shared: that call gets a fresh one. Least recently used statements beyond
 * {@link STATEMENT_CACHE_SIZE} are dropped. Schema changes are safe: SQLite re-prepares a
 * statement whose tables changed.
 */
function withStatementCache(sqlite: SQLite.Database): { close(): void; prepare(sql: string): SQLite.Statement } {
  const cache = new LruMap<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (sql) => {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (!cached) cache.set(sql, statement);
      return statement;
    },
  };
}
