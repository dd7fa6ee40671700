import type { FastifyInstance } from 'fastify';
import { createApp, type CreateAppOptions } from './app';
import { DEFAULT_SCRYPT_LOG_N, isProduction, type AppConfig } from './config';
import { installationIdAlphabet } from './platform/installation';
import { openDatabase, type DatabaseHandle } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedDemo } from './db/seed';

/**
 * Starting the server, written once (issue "One place per screen" item 5): `server/main.ts`, the
 * server tests (tests/server/harness.ts) and the pact provider verification
 * (tests/contract/provider) all open the database, migrate it and, when asked, seed it, then build
 * the app, through these two functions.
 */

/** A database ready for the app: open, migrated, seeded when asked. */
export interface OpenedDatabase extends DatabaseHandle {
  /** Names of the migrations this call applied. */
  applied: string[];
  /** True when this call seeded the demo data (only on an empty database). */
  seeded: boolean;
}

/**
 * Opens the database `config` names (PostgreSQL when `databaseUrl`, else SQLite at
 * `databasePath`), applies every module's migrations (server/modules/index.ts) and seeds the demo
 * data when `seed` is 'demo' and it is not there yet.
 * @throws the first migration error; the connection is closed before it propagates.
 */
export async function openMigratedDatabase(
  config: Pick<AppConfig, 'databasePath' | 'databaseUrl'> & Partial<Pick<AppConfig, 'seed' | 'scryptLogN'>>,
): Promise<OpenedDatabase> {
  const handle = openDatabase(config);
  try {
    const applied = await migrateToLatest(handle);
    // The demo passwords are hashed at the configured cost (loadConfig's default when not given).
    const seeded = config.seed === 'demo' ? await seedDemo(handle.db, { scryptLogN: config.scryptLogN ?? DEFAULT_SCRYPT_LOG_N }) : false;
    return { ...handle, applied, seeded };
  } catch (error) {
    await handle.db.destroy();
    throw error;
  }
}

/**
 * {@link openMigratedDatabase} then the app on it (not listening yet).
 * @param options createApp's options besides the database (clock, broadcaster, logger)
 * @returns the app and the database (close both: `app.close()`, then `database.db.destroy()`)
 */
export async function startApp(
  config: AppConfig,
  options: Omit<CreateAppOptions, 'db' | 'config'> = {},
): Promise<{ app: FastifyInstance; database: OpenedDatabase; idAlphabet: Awaited<ReturnType<typeof installationIdAlphabet>>['source'] }> {
  const database = await openMigratedDatabase(config);
  try {
    // Production never uses the alphabet from the source code (issue 11 item 16).
    const ids = await installationIdAlphabet(database.db, { production: isProduction(config), fromEnv: config.idAlphabetFromEnv });
    const app = await createApp({ ...options, db: database.db, config: { ...config, idAlphabet: ids.alphabet } });
    return { app, database, idAlphabet: ids.source };
  } catch (error) {
    await database.db.destroy();
    throw error;
  }
}
