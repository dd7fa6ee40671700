import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { PORTAL_SALES_MESSAGES, type PortalSubdivision, type reservationRequestSchema } from '../../../src/schemas/comercio/portal-sales';
import { normalizePhone } from '../../../src/schemas/crm/leads';
import { ACTION, SUBMODULE } from '../../../src/schemas/permissions';
import { recordChange, type AuditContext } from '../../audit/audit';
import { startOfLimaDay, todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { fromFlag, toFlag } from '../../db/portable';
import { conflict, HttpError } from '../../errors';
import type { BroadcastEvent } from '../../realtime/broadcaster';
import { displayName } from '../crm/customers.repository';
import { insertLead, leadRow, setLeadSubdivisions } from '../crm/leads.repository';
import { notifyAssigned } from '../crm/leads.service';

/**
 * Comercial → Ventas for customers (issue "CRM and sales"; docs/decisions.md "Ventas for
 * customers"): the published subdivisions with what is on sale, and a customer's request to
 * reserve a lot, which becomes a lead (channel WEB, campaign {@link PORTAL_CAMPAIGN}) assigned in
 * turn to an agent, who is notified.
 */

/** The campaign of the leads the portal creates (and how the turn of agents is counted). */
export const PORTAL_CAMPAIGN = 'Portal de clientes';

/** Parsed POST /api/customer/reservation-requests body. */
export type ReservationRequestBody = z.output<typeof reservationRequestSchema>;

/**
 * The published subdivisions (GET /api/customer/subdivisions), by name: their public key, place,
 * currency, the Disponible lots and their price range (only when prices are public).
 */
export async function listPortalSubdivisions(deps: Pick<AppDeps, 'db' | 'ids'>): Promise<PortalSubdivision[]> {
  const rows = await deps.db
    .selectFrom('subdivisions')
    .leftJoin('lots', (join) => join.onRef('lots.subdivision_id', '=', 'subdivisions.id').on('lots.status', '=', 'DISPONIBLE'))
    .select([
      'subdivisions.id',
      'subdivisions.name',
      'subdivisions.district',
      'subdivisions.province',
      'subdivisions.department',
      'subdivisions.currency',
      'subdivisions.public_prices',
      sql<number>`count(lots.id)`.as('available'),
      sql<number | null>`min(lots.list_price)`.as('price_from'),
      sql<number | null>`max(lots.list_price)`.as('price_to'),
    ])
    .where('subdivisions.published', '=', toFlag(true))
    .groupBy([
      'subdivisions.id',
      'subdivisions.name',
      'subdivisions.district',
      'subdivisions.province',
      'subdivisions.department',
      'subdivisions.currency',
      'subdivisions.public_prices',
    ])
    .orderBy('subdivisions.name')
    .limit(200)
    .execute();
  return rows.map((r) => {
    const prices = fromFlag(r.public_prices) && Number(r.available) > 0;
    return {
      key: deps.ids.encode(r.id),
      name: r.name,
      district: r.district,
      province: r.province,
      department: r.department,
      currency: r.currency,
      available_lots: Number(r.available),
      price_from: prices && r.price_from !== null ? Number(r.price_from) : null,
      price_to: prices && r.price_to !== null ? Number(r.price_to) : null,
    };
  });
}

/**
 * The agent whose turn it is: among active staff holding the Leads submodule (plain agents first;
 * supervisors only when there is none), the one who received a portal lead longest ago (never
 * first), ties by id. Null when nobody can take it.
 */
export async function nextPortalAgent(db: Kysely<DB>): Promise<number | null> {
  const candidates = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select([
      'users.id',
      sql<number>`max(case when role_permissions.permission = ${ACTION.supervisarLeads} then 1 else 0 end)`.as('supervisor'),
    ])
    .where('users.status', '=', 'ACTIVO')
    .where('role_permissions.permission', 'in', [SUBMODULE.leads, ACTION.supervisarLeads])
    .groupBy('users.id')
    .having(sql<number>`max(case when role_permissions.permission = ${SUBMODULE.leads} then 1 else 0 end)`, '=', 1)
    .execute();
  if (candidates.length === 0) return null;
  const plain = candidates.filter((c) => Number(c.supervisor) === 0);
  const pool = (plain.length > 0 ? plain : candidates).map((c) => c.id);
  const last = await db
    .selectFrom('leads')
    .select(['agent_id', sql<string>`max(received_at)`.as('last')])
    .where('campaign', '=', PORTAL_CAMPAIGN)
    .where('agent_id', 'in', pool)
    .groupBy('agent_id')
    .execute();
  const lastOf = new Map(last.map((r) => [r.agent_id, r.last]));
  return [...pool].sort((a, b) => (lastOf.get(a) ?? '').localeCompare(lastOf.get(b) ?? '') || a - b)[0]!;
}

/**
 * A customer asks to reserve a lot (POST /api/customer/reservation-requests): the lot must be of
 * a published subdivision and Disponible; the same lot asked for again while that lead is open is
 * a 409. Creates the lead (the customer's names, phone and e-mail; the lot and the simulated plan
 * in its notes; the subdivision of interest), assigns it to {@link nextPortalAgent} and notifies
 * them; all in one transaction.
 * @returns the realtime events to publish after the commit.
 * @throws HttpError 404 unknown subdivision or lot; 409 not Disponible, already asked, or no agent.
 */
export async function requestReservation(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids' | 'config'>,
  audit: AuditContext,
  customerId: number,
  body: ReservationRequestBody,
): Promise<{ events: BroadcastEvent[] }> {
  const subdivisionId = deps.ids.decode(body.subdivision_key);
  const lot =
    subdivisionId === null
      ? undefined
      : await deps.db
          .selectFrom('lots')
          .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
          .select(['lots.id', 'lots.code', 'lots.status', 'subdivisions.name as subdivision_name', 'subdivisions.published'])
          .where('lots.subdivision_id', '=', subdivisionId)
          .where('lots.code', '=', body.lot_code)
          .executeTakeFirst();
  if (!lot || !fromFlag(lot.published)) throw new HttpError(404, PORTAL_SALES_MESSAGES.unknownLot);
  if (lot.status !== 'DISPONIBLE') throw conflict(PORTAL_SALES_MESSAGES.unavailable);
  const customer = await deps.db
    .selectFrom('customers')
    .select(['name', 'surname', 'phone', 'email', 'document_number', 'id_document_type'])
    .where('id', '=', customerId)
    .executeTakeFirstOrThrow();
  const marker = `Solicita separar el lote ${lot.code} de ${lot.subdivision_name}`;
  const open = await deps.db
    .selectFrom('leads')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', 'in', ['POR_ATENDER', 'EN_ATENCION'])
    .where('campaign', '=', PORTAL_CAMPAIGN)
    .where('notes', 'like', `${marker.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    .executeTakeFirst();
  if (open) throw conflict(PORTAL_SALES_MESSAGES.alreadyRequested);
  // A daily cap per customer, counted in the database (every process and a restart see it).
  const today = await deps.db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number | string>().as('sent'))
    .where('customer_id', '=', customerId)
    .where('campaign', '=', PORTAL_CAMPAIGN)
    .where('created_at', '>=', startOfLimaDay(todayInLimaBy(deps.clock)))
    .executeTakeFirst();
  if (Number(today?.sent ?? 0) >= deps.config.portalLimits.reservationRequestsPerDay)
    throw new HttpError(429, PORTAL_SALES_MESSAGES.dailyLimit);
  const agentId = await nextPortalAgent(deps.db);
  if (agentId === null) throw conflict(PORTAL_SALES_MESSAGES.noAgent);
  const plan =
    body.instalments === undefined
      ? ''
      : body.instalments === 0
        ? ' Simuló: al contado.'
        : ` Simuló: inicial ${body.down_payment_percent ?? 0} % y ${body.instalments} cuotas.`;
  const notes = `${marker}.${plan}${body.message ? ` Mensaje: ${body.message}` : ''}`.slice(0, 1000);
  const now = deps.clock.now().toISOString();
  const notified = await deps.db.transaction().execute(async (trx) => {
    const leadId = await insertLead(trx, {
      name: displayName(customer),
      phone: customer.phone ? normalizePhone(customer.phone) : null,
      email: customer.email,
      id_document_type: customer.id_document_type,
      document_number: customer.document_number,
      channel: 'WEB',
      campaign: PORTAL_CAMPAIGN,
      notes,
      agent_id: agentId,
      lost_reason: null,
      next_follow_up_at: null,
      customer_id: customerId,
      last_activity_at: null,
      received_at: now,
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    await setLeadSubdivisions(trx, leadId, [subdivisionId!]);
    await recordChange(trx, audit, { entity: 'leads', recordId: leadId, action: 'CREATE', after: await leadRow(trx, leadId) });
    return notifyAssigned(trx, deps, audit, leadId);
  });
  return { events: notified.events };
}
