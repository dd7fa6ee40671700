import type { Kysely, Migration } from 'kysely';

/**
 * Registro de Contratos reads its page in creation order, newest first (`-created_at`, then id),
 * alone or within a state (docs/performance.md "Registro de Contratos"): without an index the
 * database sorted every contract on each request, and SQLite walked each row's PDF bytes to reach
 * `created_at`.
 * - `contracts_created_idx` (created_at, id): the default order;
 * - `contracts_state_created_idx` (state, created_at, id): the state filter in that order.
 */
export const administracionContractsRegisterMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async up(db: Kysely<any>) {
    await db.schema.createIndex('contracts_created_idx').on('contracts').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('contracts_state_created_idx').on('contracts').columns(['state', 'created_at', 'id']).execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('contracts_state_created_idx').execute();
    await db.schema.dropIndex('contracts_created_idx').execute();
  },
};
