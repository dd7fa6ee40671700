import { Temporal } from 'temporal-polyfill';
import type { Kysely } from 'kysely';
import { LOT_HOLD_MAX_DAYS, LOT_HOLD_MESSAGES, type LotHold, type LotHoldsQuery } from '../../../src/schemas/proyectos/lot-holds';
import { isLotTransitionAllowed, type LotStatus } from '../../../src/schemas/proyectos/projects';
import { recordChange, staffActorId, systemAuditContext, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { nextVersion } from '../../db/versions';
import { conflict, notFound, validationError } from '../../errors';
import { hasLiveReservation, lotSnapshot } from './lots.repository';

/**
 * Lot holds (src/schemas/proyectos/lot-holds.ts; docs/domain.md "Lot holds"): the `lot_holds` rows
 * of hand-made holds, their approval and their end by the expiry job
 * (server/modules/comercio/reservation-expiry.ts).
 */

/**
 * The 422 of a hold's end date against `today` (Lima): not before today, at most
 * {@link LOT_HOLD_MAX_DAYS} days after it. @throws HttpError 422 on `until`.
 */
export function assertHoldUntil(until: string, today: string): void {
  if (until < today) throw validationError({ until: [LOT_HOLD_MESSAGES.untilPast] });
  const last = Temporal.PlainDate.from(today).add({ days: LOT_HOLD_MAX_DAYS }).toString();
  if (until > last) throw validationError({ until: [LOT_HOLD_MESSAGES.untilTooFar] });
}

/** Sets every APROBADA hold of `lotId` to LIBERADA (the lot's status changes by hand before its end). */
export async function releaseLotHolds(trx: Kysely<DB>, lotId: number, stamp: string): Promise<void> {
  await trx
    .updateTable('lot_holds')
    .set({ state: 'LIBERADA', decided_at: stamp })
    .where('lot_id', '=', lotId)
    .where('state', '=', 'APROBADA')
    .execute();
}

/** Stores a hold (PENDIENTE for a request, APROBADA when the caller may approve): its id. */
export async function insertLotHold(
  trx: Kysely<DB>,
  audit: AuditContext,
  hold: { lotId: number; status: LotStatus; reason: string | null; until: string; approved: boolean; stamp: string },
): Promise<number> {
  const user = staffActorId(audit);
  const { id } = await trx
    .insertInto('lot_holds')
    .values({
      lot_id: hold.lotId,
      status: hold.status,
      state: hold.approved ? 'APROBADA' : 'PENDIENTE',
      reason: hold.reason,
      until: hold.until,
      requested_by: user,
      requested_at: hold.stamp,
      decided_by: hold.approved ? user : null,
      decided_at: hold.approved ? hold.stamp : null,
      decision_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Whether `lotId` has a hold request waiting for a supervisor. */
export async function hasPendingHold(db: Kysely<DB>, lotId: number): Promise<boolean> {
  const row = await db.selectFrom('lot_holds').select('id').where('lot_id', '=', lotId).where('state', '=', 'PENDIENTE').executeTakeFirst();
  return row !== undefined;
}

/** Holds joined to their lot and users, for the answers. */
function holdsQuery(db: Kysely<DB>) {
  return db
    .selectFrom('lot_holds as h')
    .innerJoin('lots', 'lots.id', 'h.lot_id')
    .leftJoin('users as requester', 'requester.id', 'h.requested_by')
    .leftJoin('users as decider', 'decider.id', 'h.decided_by');
}

/** The columns of {@link holdsQuery} an answer needs. */
const holdColumns = [
  'h.id',
  'h.lot_id',
  'lots.code as lot_code',
  'lots.subdivision_id',
  'h.status',
  'h.state',
  'h.reason',
  'h.until',
  'h.requested_by',
  'requester.name as requester_name',
  'requester.surname as requester_surname',
  'h.requested_at',
  'h.decided_by',
  'decider.name as decider_name',
  'decider.surname as decider_surname',
  'h.decided_at',
  'h.decision_reason',
] as const;

type HoldRow = {
  id: number;
  lot_id: number;
  lot_code: string;
  subdivision_id: number;
  status: string;
  state: string;
  reason: string | null;
  until: string;
  requested_by: number | null;
  requester_name: string | null;
  requester_surname: string | null;
  requested_at: string;
  decided_by: number | null;
  decider_name: string | null;
  decider_surname: string | null;
  decided_at: string | null;
  decision_reason: string | null;
};

const person = (id: number | null, name: string | null, surname: string | null) =>
  id !== null && name !== null ? { id, name: `${name} ${surname ?? ''}`.trim() } : null;

/** A stored row as the wire hold. */
function toHold(r: HoldRow): LotHold {
  return {
    id: r.id,
    lot: { id: r.lot_id, code: r.lot_code, subdivision_id: r.subdivision_id },
    status: r.status,
    state: r.state,
    reason: r.reason,
    until: String(r.until).slice(0, 10),
    requested_by: person(r.requested_by, r.requester_name, r.requester_surname),
    requested_at: new Date(r.requested_at).toISOString(),
    decided_by: person(r.decided_by, r.decider_name, r.decider_surname),
    decided_at: r.decided_at === null ? null : new Date(r.decided_at).toISOString(),
    decision_reason: r.decision_reason,
  };
}

/** One hold. @throws HttpError 404. */
export async function getLotHold(db: Kysely<DB>, id: number): Promise<LotHold> {
  const row = await holdsQuery(db).select(holdColumns).where('h.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toHold(row as HoldRow);
}

/**
 * GET /api/lot-holds: holds in `query.state` (default PENDIENTE), oldest request first, optionally
 * of one subdivision; `requester` set (a caller without 'Aprobar bloqueos de lotes'): only theirs.
 */
export async function listLotHolds(db: Kysely<DB>, query: LotHoldsQuery, requester: number | null): Promise<Page<LotHold>> {
  let filtered = holdsQuery(db).where('h.state', '=', query.state);
  if (query.subdivision_id !== undefined) filtered = filtered.where('lots.subdivision_id', '=', query.subdivision_id);
  if (requester !== null) filtered = filtered.where('h.requested_by', '=', requester);
  const page = await paginate(filtered, query, (q) => q.select(holdColumns).orderBy('h.requested_at').orderBy('h.id'));
  return { data: page.data.map((r) => toHold(r as HoldRow)), meta: page.meta };
}

/** Moves lot `lotId` from `from` to `to` with its history row and change record (inside `trx`). */
async function moveHeldLot(
  trx: Kysely<DB>,
  audit: AuditContext,
  lotId: number,
  from: LotStatus,
  to: LotStatus,
  reason: string,
  stamp: string,
) {
  const before = await lotSnapshot(trx, lotId);
  await trx.updateTable('lots').set({ status: to, updated_at: stamp, version: nextVersion() }).where('id', '=', lotId).execute();
  await trx
    .insertInto('lot_status_changes')
    .values({ lot_id: lotId, from_status: from, to_status: to, reason, user_id: staffActorId(audit), changed_at: stamp })
    .execute();
  await recordChange(trx, audit, {
    entity: 'lots',
    recordId: lotId,
    action: 'UPDATE',
    before,
    after: { ...(await lotSnapshot(trx, lotId)), status_reason: reason },
  });
}

/**
 * Approves (POST /api/lot-holds/{id}/approve) or rejects (…/reject) a PENDIENTE hold. Approving
 * applies it: the lot moves to the hold's status with a history row (reason: the request's), other
 * approved holds of the lot are released.
 * @throws HttpError 404; 409 when no longer PENDIENTE, when its end date passed, or when the lot's
 * status no longer allows the hold (nothing stored).
 */
export async function decideLotHold(
  deps: { db: Kysely<DB>; clock: Clock },
  audit: AuditContext,
  id: number,
  decision: { approve: boolean; reason?: string | null },
): Promise<LotHold> {
  const stamp = deps.clock.now().toISOString();
  const today = todayInLimaBy(deps.clock);
  await deps.db.transaction().execute(async (trx) => {
    const hold = await trx.selectFrom('lot_holds').selectAll().where('id', '=', id).executeTakeFirst();
    if (!hold) throw notFound();
    if (hold.state !== 'PENDIENTE') throw conflict(LOT_HOLD_MESSAGES.notPending);
    const note = decision.reason?.trim() ? decision.reason.trim() : null;
    if (decision.approve) {
      if (String(hold.until).slice(0, 10) < today) throw conflict(LOT_HOLD_MESSAGES.untilPast);
      const lot = await trx.selectFrom('lots').select('status').where('id', '=', hold.lot_id).executeTakeFirst();
      if (!lot || lot.status === hold.status || !isLotTransitionAllowed(lot.status, hold.status))
        throw conflict(LOT_HOLD_MESSAGES.lotMoved);
      await releaseLotHolds(trx, hold.lot_id, stamp);
      await moveHeldLot(trx, audit, hold.lot_id, lot.status, hold.status, hold.reason ?? 'Bloqueo aprobado', stamp);
    }
    const updated = await trx
      .updateTable('lot_holds')
      .set({
        state: decision.approve ? 'APROBADA' : 'RECHAZADA',
        decided_by: staffActorId(audit),
        decided_at: stamp,
        decision_reason: note,
      })
      .where('id', '=', id)
      .where('state', '=', 'PENDIENTE')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict(LOT_HOLD_MESSAGES.notPending);
  });
  return getLotHold(deps.db, id);
}

/**
 * The expiry job's part (server/modules/comercio/reservation-expiry.ts): up to `batch` holds whose
 * end date is before today (Lima) end. An approved hold whose lot is still in its status frees the
 * lot (→ DISPONIBLE, history row by the system "Venció el plazo del bloqueo (hasta …)"; a manual
 * SEPARADO taken over by a live reservation stays); a request never approved just ends. Both
 * become VENCIDA. @returns how many ended.
 */
export async function endDueLotHolds(db: Kysely<DB>, clock: Clock, batch: number): Promise<number> {
  const today = todayInLimaBy(clock);
  const due = await db
    .selectFrom('lot_holds')
    .select('id')
    .where('state', 'in', ['PENDIENTE', 'APROBADA'])
    .where('until', '<', today)
    .orderBy('until')
    .orderBy('id')
    .limit(batch)
    .execute();
  const audit = systemAuditContext(clock);
  for (const { id } of due) {
    await db.transaction().execute(async (trx) => {
      const hold = await trx
        .selectFrom('lot_holds')
        .selectAll()
        .where('id', '=', id)
        .where('state', 'in', ['PENDIENTE', 'APROBADA'])
        .executeTakeFirst();
      if (!hold) return; // another process ended it first
      const stamp = clock.now().toISOString();
      if (hold.state === 'APROBADA') {
        const lot = await trx.selectFrom('lots').select('status').where('id', '=', hold.lot_id).executeTakeFirst();
        const takenOver = hold.status === 'SEPARADO' && (await hasLiveReservation(trx, hold.lot_id));
        if (lot && lot.status === hold.status && !takenOver) {
          const until = String(hold.until).slice(0, 10);
          await moveHeldLot(trx, audit, hold.lot_id, hold.status, 'DISPONIBLE', `Venció el plazo del bloqueo (hasta ${until})`, stamp);
        }
      }
      await trx
        .updateTable('lot_holds')
        .set({ state: 'VENCIDA', decided_at: hold.decided_at ?? stamp })
        .where('id', '=', id)
        .execute();
    });
  }
  return due.length;
}
