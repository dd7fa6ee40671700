import type { Kysely } from 'kysely';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import type { DB, LotStatus } from '../../db/database';
import { nextVersion } from '../../db/versions';
import { lotSnapshot } from '../proyectos/lots.repository';

/** Lot status moves of Comercial (reservations, sales): one conditional UPDATE each, with the lot's history. */

/**
 * Moves a lot between statuses with its status-history row and change record, only when it is in
 * `from` (one conditional UPDATE: of two transactions racing for the lot only one matches).
 * @returns whether the lot moved.
 */
export async function moveLot(
  trx: Kysely<DB>,
  audit: AuditContext,
  lotId: number,
  from: LotStatus,
  to: LotStatus,
  reason: string,
): Promise<boolean> {
  const before = await lotSnapshot(trx, lotId);
  const stamp = audit.clock.now().toISOString();
  const moved = await trx
    .updateTable('lots')
    .set({ status: to, updated_at: stamp, version: nextVersion() })
    .where('id', '=', lotId)
    .where('status', '=', from)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) return false;
  await trx
    .insertInto('lot_status_changes')
    .values({ lot_id: lotId, from_status: from, to_status: to, reason, user_id: staffActorId(audit), changed_at: stamp })
    .execute();
  await recordChange(trx, audit, { entity: 'lots', recordId: lotId, action: 'UPDATE', before, after: await lotSnapshot(trx, lotId) });
  return true;
}
