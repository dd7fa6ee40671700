import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../../db/connection';
import { columnTypes } from '../../../db/migrations/column-types';

/**
 * Change history (docs/domain.md "Cross-cutting: Change history"; issue "Configuración and
 * Historial de cambios"): one row per create, update or delete, written by `server/audit/audit.ts`
 * in the same transaction as the change. `before`/`after` are JSON objects of the record's fields
 * (secrets stripped); `changed_fields` is a JSON array of the field names that differ.
 */
export function changeHistoryMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('change_history')
        .addColumn('id', 'integer', t.id)
        .addColumn('occurred_at', t.instant, (c) => c.notNull())
        .addColumn('actor_type', 'text')
        .addColumn('actor_id', 'integer')
        .addColumn('ip', 'text')
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('changed_fields', 'text', (c) => c.notNull())
        .addCheckConstraint('change_history_action_check', sql`action in ('CREATE', 'UPDATE', 'DELETE')`)
        .addCheckConstraint('change_history_actor_type_check', sql`actor_type is null or actor_type in ('COLLABORATOR', 'CUSTOMER')`)
        .execute();
      // Listing is newest first, optionally by entity + record or by actor.
      await db.schema.createIndex('change_history_occurred_idx').on('change_history').columns(['occurred_at', 'id']).execute();
      await db.schema.createIndex('change_history_record_idx').on('change_history').columns(['entity', 'record_id']).execute();
      await db.schema.createIndex('change_history_actor_idx').on('change_history').columns(['actor_type', 'actor_id']).execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('change_history').ifExists().execute();
    },
  };
}
