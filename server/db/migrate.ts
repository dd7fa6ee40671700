import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle, DialectName } from './connection';
import { initialMigration } from './migrations/0001-initial';
import { notificationsMigration } from './migrations/0002-notifications';
import { changeHistoryMigration } from './migrations/0003-change-history';
import { configuracionMigration } from './migrations/0004-configuracion';
import { projectsMigration } from './migrations/0005-projects';
import { numericLimitsMigration } from './migrations/0006-numeric-limits';
import { recordVersionsMigration } from './migrations/0007-record-versions';

/** Every migration in order; names sort lexically and must never change once released. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(dialect),
    '0002-notifications': notificationsMigration(dialect),
    '0003-change-history': changeHistoryMigration(dialect),
    '0004-configuracion': configuracionMigration(dialect),
    '0005-projects': projectsMigration(dialect),
    '0006-numeric-limits': numericLimitsMigration(dialect),
    '0007-record-versions': recordVersionsMigration(dialect),
  };
}

/** In-code provider (no file-system scanning, so it works the same under tsx, vitest and a bundle). */
function provider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}

/**
 * Brings the schema to the latest migration (idempotent; Kysely records applied ones in
 * `kysely_migration` and locks concurrent runs).
 * @returns names of the migrations applied by this call.
 * @throws the first migration error.
 */
export async function migrateToLatest({ db, dialect }: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db, provider: provider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
