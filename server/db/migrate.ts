import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle, DialectName } from './connection';
import { allMigrations } from '../modules';

/** Every migration in order (from each module, server/modules/index.ts); names never change once released. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return allMigrations(dialect);
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
