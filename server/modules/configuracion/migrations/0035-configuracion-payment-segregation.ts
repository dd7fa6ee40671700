import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** The column as this migration adds it (the SQLite `down` removes exactly this text). */
const COLUMN = `"payment_approval_segregation" integer default 1 not null check (payment_approval_segregation in (0, 1))`;

/**
 * The company's segregation of duties on payments (docs/domain.md "Payments: segregation of
 * duties"; docs/security.md 31.10): 1 (the default) → the staff member who registered a payment
 * cannot approve it, unless an administrator overrides it with a reason; 0 → anyone with Pagos may.
 * Read by server/modules/finanzas/payments.service.ts `approvePayment`, edited in Configuración →
 * Empresa. Both dialects add the column in place; SQLite's `down` rebuilds the table (a column
 * with a CHECK cannot be dropped there).
 */
export function paymentSegregationMigration(dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await sql.raw(`alter table companies add column ${COLUMN}`).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (dialect === 'postgres') await sql.raw('alter table companies drop column payment_approval_segregation').execute(db);
      else await rebuildSqliteTable(db, 'companies', (create) => create.replace(`, ${COLUMN}`, ''));
    },
  };
}
