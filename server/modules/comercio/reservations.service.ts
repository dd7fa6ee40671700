import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  LIVE_RESERVATION_STATUSES,
  RESERVATION_MESSAGES,
  type cancelReservationRequestSchema,
  type createReservationRequestSchema,
  type Reservation,
  type ReservationsQuery,
} from '../../../src/schemas/comercio/reservations';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { recordChange, staffActorId, systemAuditContext, type AuditContext } from '../../audit/audit';
import { DAY_MS, type Clock } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { isUniqueViolation } from '../../db/portable';
import { nextVersion, staleRecord } from '../../db/versions';
import { conflict, notFound, validationError, type FieldErrors } from '../../errors';
import { createNotifications, escapeHtml, type CreatedNotifications } from '../../notifications/notifications.service';
import { concludeLeadsOfCustomer } from '../crm/leads.service';
import { moveLot } from './lot-moves';
import { listReservationIds, reservationNumber, reservationRow, reservationsByIds } from './reservations.repository';

/** Parsed POST /api/reservations body. */
export type CreateReservationBody = z.output<typeof createReservationRequestSchema>;
/** Parsed POST /api/reservations/{id}/cancel body. */
export type CancelReservationBody = z.output<typeof cancelReservationRequestSchema>;

/** One page of reservations (GET /api/reservations). */
export async function listReservations(db: Kysely<DB>, query: ReservationsQuery): Promise<Page<Reservation>> {
  const page = await listReservationIds(db, query);
  return {
    data: await reservationsByIds(
      db,
      page.data.map((r) => r.id),
    ),
    meta: page.meta,
  };
}

/** One reservation. @throws HttpError 404. */
export async function getReservation(db: Kysely<DB>, id: number): Promise<Reservation> {
  const [reservation] = await reservationsByIds(db, [id]);
  if (!reservation) throw notFound();
  return reservation;
}

/** 422 errors of the parties: the customer exists and is active, the lot exists, the agent is active staff. */
async function partyErrors(db: Kysely<DB>, body: CreateReservationBody, agentId: number | null): Promise<FieldErrors | null> {
  const errors: FieldErrors = {};
  const customer = await db.selectFrom('customers').select('status').where('id', '=', body.customer_id).executeTakeFirst();
  if (!customer) errors.customer_id = [RESERVATION_MESSAGES.unknownCustomer];
  else if (customer.status !== 'ACTIVO') errors.customer_id = [RESERVATION_MESSAGES.inactiveCustomer];
  const lot = await db.selectFrom('lots').select('id').where('id', '=', body.lot_id).executeTakeFirst();
  if (!lot) errors.lot_id = [RESERVATION_MESSAGES.unknownLot];
  if (agentId !== null) {
    const agent = await db.selectFrom('users').select('status').where('id', '=', agentId).executeTakeFirst();
    if (agent?.status !== 'ACTIVO') errors.agent_id = [RESERVATION_MESSAGES.unknownAgent];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Reserves a lot (POST /api/reservations): in one transaction the lot goes DISPONIBLE → SEPARADO
 * by a conditional update and the reservation is inserted (PENDIENTE_PAGO, expiring `hold_days`
 * days from now, the subdivision's currency). Two agents reserving one lot at the same moment:
 * exactly one wins, the other gets 409 {@link RESERVATION_MESSAGES}.lotUnavailable; the unique
 * partial index `reservations_live_lot_uq` backs the rule in the database.
 * @throws HttpError 422 on unknown or inactive customer, unknown lot, inactive agent; 409 when the
 *   lot is not DISPONIBLE.
 */
export async function createReservation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  audit: AuditContext,
  body: CreateReservationBody,
): Promise<Reservation> {
  const agentId = body.agent_id ?? staffActorId(audit);
  const errors = await partyErrors(deps.db, body, agentId);
  if (errors) throw validationError(errors);
  const now = deps.clock.now();
  const stamp = now.toISOString();
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      const lot = await trx
        .selectFrom('lots')
        .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
        .select(['lots.code', 'subdivisions.currency'])
        .where('lots.id', '=', body.lot_id)
        .executeTakeFirstOrThrow();
      const { id: reservationId } = await trx
        .insertInto('reservations')
        .values({
          customer_id: body.customer_id,
          lot_id: body.lot_id,
          agent_id: agentId,
          amount: body.amount,
          currency: lot.currency,
          hold_days: body.hold_days,
          expires_at: new Date(now.getTime() + body.hold_days * DAY_MS).toISOString(),
          status: 'PENDIENTE_PAGO',
          conditions_accepted_at: stamp,
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The guard: only a DISPONIBLE lot moves; the loser of a race matches no row (and rolls back its insert).
      if (!(await moveLot(trx, audit, body.lot_id, 'DISPONIBLE', 'SEPARADO', `Separación ${reservationNumber(reservationId)}`))) {
        throw conflict(RESERVATION_MESSAGES.lotUnavailable);
      }
      await recordChange(trx, audit, {
        entity: 'reservations',
        recordId: reservationId,
        action: 'CREATE',
        after: await reservationRow(trx, reservationId),
      });
      // A reservation is what concludes the customer's open leads (issue "CRM and sales").
      await concludeLeadsOfCustomer(trx, audit, body.customer_id);
      return reservationId;
    });
  } catch (error) {
    // The index's own refusal (a race the conditional update did not see) is the same 409.
    if (isUniqueViolation(error)) throw conflict(RESERVATION_MESSAGES.lotUnavailable);
    throw error;
  }
  return getReservation(deps.db, id);
}

/**
 * Ends a live reservation as ANULADA (with reason) or VENCIDA and frees its lot (SEPARADO →
 * DISPONIBLE), in `trx`. The reservation's conditional update (live status, and `version` when
 * given) makes it happen once: a second caller — another request, another server process's job —
 * matches no row.
 * @returns false when the reservation was no longer live (nothing changed).
 */
async function endReservation(
  trx: Kysely<DB>,
  audit: AuditContext,
  id: number,
  to: 'ANULADA' | 'VENCIDA',
  reason: string | null,
  version?: number,
): Promise<boolean> {
  const before = await reservationRow(trx, id);
  if (!before) return false;
  const stamp = audit.clock.now().toISOString();
  const updated = await trx
    .updateTable('reservations')
    .set({ status: to, cancel_reason: reason, updated_at: stamp, version: nextVersion() })
    .where('id', '=', id)
    .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
    .$if(version !== undefined, (q) => q.where('version', '=', version ?? 0))
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return false;
  const why =
    to === 'VENCIDA' ? `Separación ${reservationNumber(id)} vencida` : `Separación ${reservationNumber(id)} anulada: ${reason ?? ''}`;
  await moveLot(trx, audit, before.lot_id, 'SEPARADO', 'DISPONIBLE', why);
  await recordChange(trx, audit, { entity: 'reservations', recordId: id, action: 'UPDATE', before, after: await reservationRow(trx, id) });
  return true;
}

/**
 * Annuls a live reservation (POST /api/reservations/{id}/cancel) and frees its lot.
 * @throws HttpError 404; 409 when it is no longer live, or (with `version`) changed since.
 */
export async function cancelReservation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  audit: AuditContext,
  id: number,
  body: CancelReservationBody,
): Promise<Reservation> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await reservationRow(trx, id);
    if (!row) throw notFound();
    if (!LIVE_RESERVATION_STATUSES.includes(row.status)) throw conflict(RESERVATION_MESSAGES.notLive);
    const ended = await endReservation(trx, audit, id, 'ANULADA', body.reason, body.version);
    // Live a moment ago, so only the version can have refused it.
    if (!ended) throw staleRecord();
  });
  return getReservation(deps.db, id);
}

/** The agent of a reservation as a notification recipient, or none. */
async function agentOf(db: Kysely<DB>, id: number) {
  const row = await db.selectFrom('reservations').select('agent_id').where('id', '=', id).executeTakeFirst();
  return row?.agent_id ? [{ userType: 'COLLABORATOR' as const, accountId: row.agent_id }] : [];
}

/** "Rosa Quispe — MZ A - LT 3 (Los Viñedos)" of a reservation, HTML-escaped. */
async function describe(db: Kysely<DB>, id: number): Promise<string> {
  const [r] = await reservationsByIds(db, [id]);
  return r ? escapeHtml(`${r.customer.display_name} — ${r.lot.code} (${r.lot.subdivision_name})`) : '';
}

/**
 * Expires one due reservation (the job's unit of work): VENCIDA, lot freed, history, and the
 * "Separación vencida" notification to its agent, in one transaction.
 * @returns the events to publish after commit; empty when another process expired it first.
 */
export async function expireReservation(db: Kysely<DB>, clock: Clock, id: number): Promise<CreatedNotifications> {
  return db.transaction().execute(async (trx) => {
    const audit = systemAuditContext(clock);
    if (!(await endReservation(trx, audit, id, 'VENCIDA', null))) return { ids: [], events: [] };
    return createNotifications(trx, clock, await agentOf(trx, id), {
      type: 'WARNING',
      title: RESERVATION_MESSAGES.expiredTitle,
      detail: `<p>La separación <b>${reservationNumber(id)}</b> venció y el lote quedó disponible: ${await describe(trx, id)}.</p>`,
      route: AUTH_ROUTES.ventas.path,
    });
  });
}

/**
 * Sends the "vence mañana" notification of one reservation once (a conditional update of
 * `reminded_at` claims it, so two processes do not both send it).
 * @returns the events to publish after commit; empty when already reminded or no longer live.
 */
export async function remindReservation(db: Kysely<DB>, clock: Clock, id: number): Promise<CreatedNotifications> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('reservations')
      .set({ reminded_at: clock.now().toISOString() })
      .where('id', '=', id)
      .where('reminded_at', 'is', null)
      .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) return { ids: [], events: [] };
    return createNotifications(trx, clock, await agentOf(trx, id), {
      type: 'WARNING',
      title: RESERVATION_MESSAGES.expiringTitle,
      detail: `<p>La separación <b>${reservationNumber(id)}</b> vence en menos de 24 horas: ${await describe(trx, id)}.</p>`,
      route: AUTH_ROUTES.ventas.path,
    });
  });
}
