import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** The column as this migration adds it (the SQLite `down` removes exactly this text). */
const COLUMN = `"sale_backdate_days" integer default 60 not null check (sale_backdate_days between 0 and 366)`;

/**
 * The company's back-dating window of sales (docs/domain.md "Sales": "a sale date within a window
 * the company sets"): how many days before today a sale may be dated, 0 … 366, default 60; a sale
 * is never dated in the future. Read by server/modules/comercio/sales.service.ts `createSale`,
 * edited in Configuración → Empresa. Both dialects add the column in place; SQLite's `down`
 * rebuilds the table (a column with a CHECK cannot be dropped there).
 */
export function saleBackdatingMigration(dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql.raw(`alter table companies add column ${COLUMN}`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (dialect === 'postgres') await sql.raw('alter table companies drop column sale_backdate_days').execute(db);
      else await rebuildSqliteTable(db, 'companies', (create) => create.replace(`, ${COLUMN}`, ''));
    },
  };
}
