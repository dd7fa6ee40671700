import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';

/**
 * The PDFs' copy of the company logo (docs/security.md 30.6): a PNG of at most 600 px a side, made
 * when the logo is uploaded (server/modules/configuracion/logo.ts `logoPdfCopy`). Logos stored
 * before this migration get theirs on the first PDF that needs it.
 */
export function companyLogoPdfMigration(dialect: DialectName): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('companies')
        .addColumn('logo_pdf_data', dialect === 'postgres' ? 'bytea' : 'blob')
        .execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('companies').dropColumn('logo_pdf_data').execute();
    },
  };
}
