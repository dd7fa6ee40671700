import type { Kysely } from 'kysely';
import { LIVE_RESERVATION_STATUSES, type Reservation, type ReservationsQuery } from '../../../src/schemas/comercio/reservations';
import type { DB, Instant } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql } from '../../db/text-search';
import { displayName, displayNameSql } from '../crm/customers.repository';

/** SQL of reservations (`reservations`). */

/** "SEP-000123" of a reservation id. */
export const reservationNumber = (id: number) => `SEP-${String(id).padStart(6, '0')}`;

/** One page of reservation ids in order, and the total. `q` matches the customer's names, document or the lot's code. */
export async function listReservationIds(db: Kysely<DB>, filters: ReservationsQuery): Promise<Page<{ id: number }>> {
  let query = db
    .selectFrom('reservations')
    .innerJoin('customers', 'customers.id', 'reservations.customer_id')
    .innerJoin('lots', 'lots.id', 'reservations.lot_id');
  if (filters.q) {
    const pattern = searchPatternSql(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb(displayNameSql, 'like', pattern),
        eb('customers.document_number', 'like', pattern),
        eb('lots.search_text', 'like', pattern),
      ]),
    );
  }
  if (filters.status) query = query.where('reservations.status', '=', filters.status);
  if (filters.customer_id !== undefined) query = query.where('reservations.customer_id', '=', filters.customer_id);
  if (filters.lot_id !== undefined) query = query.where('reservations.lot_id', '=', filters.lot_id);
  if (filters.agent_id !== undefined) query = query.where('reservations.agent_id', '=', filters.agent_id);
  const { field, direction } = parseSort<'created_at' | 'expires_at' | 'amount'>(filters.sort, '-created_at');
  return paginate(query, filters, (q) =>
    q.select('reservations.id').orderBy(`reservations.${field}`, direction).orderBy('reservations.id', direction),
  );
}

/** Reservations by id → wire reservations (customer, lot, agent joined), in the order of `ids`. */
export async function reservationsByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Reservation[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('reservations')
    .innerJoin('customers', 'customers.id', 'reservations.customer_id')
    .innerJoin('lots', 'lots.id', 'reservations.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .leftJoin('users as agent', 'agent.id', 'reservations.agent_id')
    .selectAll('reservations')
    .select([
      'customers.name as customer_name',
      'customers.surname as customer_surname',
      'customers.document_number',
      'lots.code as lot_code',
      'subdivisions.name as subdivision_name',
      'agent.name as agent_name',
      'agent.surname as agent_surname',
    ])
    .where('reservations.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        number: reservationNumber(r.id),
        customer: {
          id: r.customer_id,
          display_name: displayName({ name: r.customer_name, surname: r.customer_surname }),
          document_number: r.document_number,
        },
        lot: { id: r.lot_id, code: r.lot_code, subdivision_name: r.subdivision_name },
        agent: r.agent_id !== null && r.agent_name !== null ? { id: r.agent_id, name: r.agent_name, surname: r.agent_surname ?? '' } : null,
        amount: Number(r.amount),
        currency: r.currency,
        hold_days: r.hold_days,
        expires_at: r.expires_at,
        status: r.status,
        cancel_reason: r.cancel_reason,
        conditions_accepted_at: r.conditions_accepted_at,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}

/** The stored row (for the change history). */
export function reservationRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ids of live reservations whose expiry has passed at `now`, oldest first, at most `limit`. */
export async function dueReservationIds(db: Kysely<DB>, now: Instant, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('reservations')
    .select('id')
    .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Ids of live reservations expiring within (now, until] that were not reminded yet, at most `limit`. */
export async function reservationsToRemind(db: Kysely<DB>, now: Instant, until: Instant, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('reservations')
    .select('id')
    .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
    .where('reminded_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', until)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
