import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * Configuración (issue "Configuración and Historial de cambios"): the locals a staff user works at
 * (`user_locals`), and the company's legal representative and logo (stored in the database as
 * bytes with their content type, so SQLite and PostgreSQL installs need no file storage).
 */
export function configuracionMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_locals')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('local_id', 'integer', (c) => c.notNull().references('locals.id'))
        .addPrimaryKeyConstraint('user_locals_pk', ['user_id', 'local_id'])
        .execute();
      await db.schema.createIndex('user_locals_local_id_idx').on('user_locals').column('local_id').execute();

      await db.schema.alterTable('companies').addColumn('legal_representative', 'text').execute();
      await db.schema.alterTable('companies').addColumn('logo_content_type', 'text').execute();
      await db.schema
        .alterTable('companies')
        .addColumn('logo_data', postgres ? 'bytea' : 'blob')
        .execute();
      await db.schema
        .alterTable('companies')
        .addColumn('logo_updated_at', postgres ? 'timestamptz' : 'text')
        .execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const column of ['logo_updated_at', 'logo_data', 'logo_content_type', 'legal_representative']) {
        await db.schema.alterTable('companies').dropColumn(column).execute();
      }
      await db.schema.dropTable('user_locals').ifExists().execute();
    },
  };
}
