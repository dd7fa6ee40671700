import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../connection';

/**
 * Tables whose rows staff edit through a form (issue 11 item 9, "lost updates"): each gets a
 * `version` integer, 1 for every existing and new row, raised by 1 by every change of the record
 * (server/db/versions.ts). An edit carries the version it was read at; the update runs
 * `… where id = ? and version = ?` in the same statement, so of two concurrent edits read at the
 * same version only the first one matches a row and the other is a 409 (docs/decisions.md).
 */
export const VERSIONED_TABLES = ['users', 'roles', 'companies', 'locals', 'subdivisions', 'stages', 'blocks', 'lots'] as const;
export type VersionedTable = (typeof VERSIONED_TABLES)[number];

/** Adds `version integer not null default 1` to {@link VERSIONED_TABLES} (same DDL on SQLite and PostgreSQL). */
export function recordVersionsMigration(_dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const table of VERSIONED_TABLES) {
        await db.schema
          .alterTable(table)
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      }
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const table of VERSIONED_TABLES) await db.schema.alterTable(table).dropColumn('version').execute();
    },
  };
}
