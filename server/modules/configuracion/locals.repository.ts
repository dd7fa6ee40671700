import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';
import { toFlag } from '../../db/portable';
import type { Local } from '../../../src/schemas/session';

/** SQL of `locals` (branches). */

/**
 * Active locals in registration order (docs/product.md §7 row 9): the first one registered, normally the head
 * office, comes first and is what Inicio shows as the active location.
 */
export function listActiveLocals(db: Kysely<DB>): Promise<Local[]> {
  return db.selectFrom('locals').select(['id', 'name', 'address']).where('active', '=', toFlag(true)).orderBy('id').execute();
}

/** Inserts a local. @returns its id. */
export async function insertLocal(
  db: Kysely<DB>,
  local: { companyId: number; name: string; address: string; active?: boolean },
): Promise<number> {
  const { id } = await db
    .insertInto('locals')
    .values({ company_id: local.companyId, name: local.name, address: local.address, active: toFlag(local.active ?? true) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
