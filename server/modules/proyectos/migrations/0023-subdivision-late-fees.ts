import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** The columns as this migration adds them (the SQLite `down` removes exactly this text). */
const COLUMNS = [
  `"late_fee_grace_days" integer default 3 not null check (late_fee_grace_days between 0 and 60)`,
  `"late_fee_kind" text default 'MONTO_DIARIO' not null check (late_fee_kind in ('MONTO_DIARIO', 'PORCENTAJE_MENSUAL'))`,
  `"late_fee_daily_amount" bigint default 500 not null check (late_fee_daily_amount between 0 and 100000)`,
  `"late_fee_monthly_percent" text default '0' not null`,
  `"late_fee_cap" bigint check (late_fee_cap is null or late_fee_cap >= 0)`,
];

/**
 * The late-fee policy of each subdivision (issue "Money in": "Late fees — policy per subdivision
 * (grace days, MONTO_DIARIO or PORCENTAJE_MENSUAL, cap)"; DOMAIN.md "Late fee"): grace days
 * (default 3), kind (default MONTO_DIARIO), the daily amount in céntimos (default 500 = S/ 5.00),
 * the monthly percent as decimal text (default '0'), and the cap per instalment in céntimos (null:
 * none). Existing subdivisions take the defaults. The rules that read it:
 * src/lib/finanzas/late-fees.ts; the bounds there are the checks here (the percent's, a decimal
 * text, is checked by the API). Both dialects add the columns in place; SQLite's `down` rebuilds
 * the table (columns with a CHECK cannot be dropped there).
 */
export function subdivisionLateFeesMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const column of COLUMNS) await sql.raw(`alter table subdivisions add column ${column}`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (postgres) {
        for (const name of ['late_fee_grace_days', 'late_fee_kind', 'late_fee_daily_amount', 'late_fee_monthly_percent', 'late_fee_cap'])
          await sql.raw(`alter table subdivisions drop column ${name}`).execute(db);
        return;
      }
      await rebuildSqliteTable(db, 'subdivisions', (create) => COLUMNS.reduce((text, column) => text.replace(`, ${column}`, ''), create));
    },
  };
}
