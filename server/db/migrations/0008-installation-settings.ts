import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../connection';

/**
 * Settings that belong to one installation and must never change once chosen (issue 11 item 16):
 * `installation_settings (name, value)`, today only `id_alphabet`, the alphabet of the opaque ids
 * in shared links (server/platform/installation.ts).
 */
export function installationSettingsMigration(_dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('installation_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('installation_settings').execute();
    },
  };
}
