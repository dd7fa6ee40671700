import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** Columns added, per table, as this migration writes them (the SQLite `down` removes exactly this text). */
const COLUMNS = {
  companies: [
    `"legal_representative_dni" text`,
    `"legal_representative_power_entry" text`,
    `"contract_place" text`,
    `"contract_signature_days" integer default 15 not null check (contract_signature_days between 1 and 365)`,
  ],
  customers: [
    `"property_regime" text check (property_regime is null or property_regime in ('SOCIEDAD_GANANCIALES', 'SEPARACION_PATRIMONIOS'))`,
  ],
  subdivisions: [
    `"rescission_overdue_instalments" integer default 3 not null check (rescission_overdue_instalments between 1 and 24)`,
    `"rescission_paid_share_limit_pct" integer check (rescission_paid_share_limit_pct is null or rescission_paid_share_limit_pct between 1 and 100)`,
    `"rescission_penalty_pct" integer default 10 not null check (rescission_penalty_pct between 0 and 100)`,
  ],
} as const;

/**
 * Settings the contracts, the rescission and their documents read (docs/domain.md "Contract
 * variables", "Rescission"):
 * - companies: the legal representative's DNI and the registry entry of their power
 *   (`legal_representative_power_entry`, SUNARP partida/asiento), the place contracts are signed
 *   (`contract_place`, e.g. "Lima"), and `contract_signature_days` (1–365, default 15): a contract
 *   EMITIDO for longer without its signed scan is flagged in Registro de Contratos;
 * - customers: `property_regime` (SOCIEDAD_GANANCIALES | SEPARACION_PATRIMONIOS, Código Civil art.
 *   295) of a married buyer;
 * - subdivisions: the rescission policy — `rescission_overdue_instalments` (default 3, Código Civil
 *   art. 1561), `rescission_paid_share_limit_pct` (after this share of the price is paid only the
 *   balance can be claimed, art. 1562; null = no limit) and `rescission_penalty_pct` (default 10,
 *   art. 1563).
 * Both dialects add the columns in place; SQLite's `down` rebuilds the tables (columns with a
 * CHECK cannot be dropped there).
 */
export function administracionContractSettingsMigration(dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(COLUMNS)) {
        for (const column of columns) await sql.raw(`alter table ${table} add column ${column}`).execute(db);
      }
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(COLUMNS)) {
        if (dialect === 'postgres') {
          for (const column of columns) {
            const name = column.slice(1, column.indexOf('"', 1));
            await sql.raw(`alter table ${table} drop column ${name}`).execute(db);
          }
        } else {
          await rebuildSqliteTable(db, table, (create) => columns.reduce((text, column) => text.replace(`, ${column}`, ''), create));
        }
      }
    },
  };
}
