import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** The column as this migration adds it (the SQLite `down` removes exactly this text). */
const column = (type: string) =>
  `"overlap_limit_m2" ${type} default 0.05 not null check (overlap_limit_m2 >= 0 and overlap_limit_m2 <= 10)`;

/**
 * Per-subdivision overlap limit of the lot import (issue 13 item 2; docs/import.md "Checks"):
 * `subdivisions.overlap_limit_m2`, the area in m² two lots of an imported file may share before it
 * is an error (0.05 m² by default, 0–10). Existing subdivisions take the default.
 * PostgreSQL and SQLite add the column in place; SQLite's `down` rebuilds the table (a column
 * with a CHECK cannot be dropped there).
 */
export function overlapLimitMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql.raw(`alter table subdivisions add column ${column(postgres ? 'double precision' : 'real')}`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        await sql`alter table subdivisions drop column overlap_limit_m2`.execute(db);
        return;
      }
      await rebuildSqliteTable(db, 'subdivisions', (create) => create.replace(`, ${column('real')}`, ''));
    },
  };
}
