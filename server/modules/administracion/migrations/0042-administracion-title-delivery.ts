import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { columnTypes } from '../../../db/migrations/column-types';

/**
 * The delivery record of a title process (docs/domain.md "Titles at SUNARP", "The screen"):
 * `title_delivery_records`, at most one per process (unique `process_id`), the acta de entrega
 * uploaded as a PDF or an image — its type sniffed from the bytes, its bytes in the row (never in
 * the web root; served by GET /api/title-processes/{id}/delivery-record). A separate table so the
 * list and the board never read the bytes.
 */
export function administracionTitleDeliveryMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('title_delivery_records')
        .addColumn('id', 'integer', t.id)
        .addColumn('process_id', 'integer', (c) => c.notNull().unique().references('title_processes.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        // Last: SQLite reads a row's overflow pages only for the columns a query asks for.
        .addColumn('data', blob, (c) => c.notNull())
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('title_delivery_records').execute();
    },
  };
}
