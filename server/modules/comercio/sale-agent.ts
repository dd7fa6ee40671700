import type { Kysely } from 'kysely';
import { LIVE_RESERVATION_STATUSES } from '../../../src/schemas/comercio/reservations';
import { SALE_MESSAGES, type AgentSource, type ProposedAgent, type ProposedAgentQuery } from '../../../src/schemas/comercio/sales';
import { staffActorId, type AuditContext } from '../../audit/audit';
import type { DB } from '../../db/database';
import { HttpError, notFound } from '../../errors';

/**
 * The selling agent of a sale (docs/domain.md "Sales": who is the selling agent). A sale is
 * credited to the agent of the lot's live reservation held by a buyer, else the buyers' asesor
 * (`customers.agent_id`, the titular first), else the agent of the most recent lead converted into
 * a buyer (the titular's first), else the user who registers it. Only active staff users count: an
 * agent who left is skipped. The sales report's "Por asesor" and commissions read `sales.agent_id`.
 */

/** The proposed agent of a sale: a user id (null only without a staff caller) and its source. */
export interface AgentProposal {
  agentId: number | null;
  source: AgentSource;
}

/** Whether `id` is an active staff user. */
async function isActiveStaff(db: Kysely<DB>, id: number | null): Promise<boolean> {
  if (id === null) return false;
  const row = await db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status === 'ACTIVO';
}

/**
 * The agent a sale of lot `lotId` to `customerIds` (the buyers, titular first) is credited to when
 * none is chosen: reservation → customer's asesor → lead's agent → `actorId`.
 */
export async function proposeSaleAgent(
  db: Kysely<DB>,
  lotId: number,
  customerIds: readonly number[],
  actorId: number | null,
): Promise<AgentProposal> {
  const live = await db
    .selectFrom('reservations')
    .innerJoin('users', 'users.id', 'reservations.agent_id')
    .select(['reservations.customer_id', 'reservations.agent_id'])
    .where('reservations.lot_id', '=', lotId)
    .where('reservations.status', 'in', [...LIVE_RESERVATION_STATUSES])
    .where('users.status', '=', 'ACTIVO')
    .executeTakeFirst();
  // With no buyer entered yet, the reservation's customer will be the titular.
  if (live?.agent_id != null && (customerIds.length === 0 || customerIds.includes(live.customer_id)))
    return { agentId: live.agent_id, source: 'RESERVA' };
  if (customerIds.length > 0) {
    const customers = await db
      .selectFrom('customers')
      .innerJoin('users', 'users.id', 'customers.agent_id')
      .select(['customers.id', 'customers.agent_id'])
      .where('customers.id', 'in', [...customerIds])
      .where('users.status', '=', 'ACTIVO')
      .execute();
    for (const id of customerIds) {
      const agentId = customers.find((c) => c.id === id)?.agent_id;
      if (agentId != null) return { agentId, source: 'CLIENTE' };
    }
    const leads = await db
      .selectFrom('leads')
      .innerJoin('users', 'users.id', 'leads.agent_id')
      .select(['leads.customer_id', 'leads.agent_id'])
      .where('leads.customer_id', 'in', [...customerIds])
      .where('users.status', '=', 'ACTIVO')
      .orderBy('leads.received_at', 'desc')
      .orderBy('leads.id', 'desc')
      .execute();
    for (const id of customerIds) {
      const agentId = leads.find((l) => l.customer_id === id)?.agent_id;
      if (agentId != null) return { agentId, source: 'LEAD' };
    }
  }
  return { agentId: actorId, source: 'USUARIO' };
}

/**
 * GET /api/sales/proposed-agent: {@link proposeSaleAgent} for the caller, with the agent's names.
 * @throws HttpError 404 when the lot does not exist.
 */
export async function proposedAgent(db: Kysely<DB>, audit: AuditContext, query: ProposedAgentQuery): Promise<ProposedAgent> {
  const lot = await db.selectFrom('lots').select('id').where('id', '=', query.lot_id).executeTakeFirst();
  if (!lot) throw notFound();
  const { agentId, source } = await proposeSaleAgent(db, query.lot_id, query.customer_ids ?? [], staffActorId(audit));
  const user =
    agentId === null
      ? undefined
      : await db.selectFrom('users').select(['id', 'name', 'surname']).where('id', '=', agentId).executeTakeFirst();
  return { agent: user ? { id: user.id, name: user.name, surname: user.surname ?? '' } : null, source };
}

/**
 * The agent a new sale is stored with: `requested` when given — the proposed one for anyone,
 * another only when `canAssign` ('Supervisar leads', or a system change) — else the proposed one.
 * @returns the agent id, or a field error for `agent_id` (an unknown or inactive user).
 * @throws HttpError 403 {@link SALE_MESSAGES}.agentNotAllowed when another agent is asked without the right.
 */
export async function saleAgentFor(
  db: Kysely<DB>,
  audit: AuditContext,
  lotId: number,
  holderIds: readonly number[],
  requested: number | null | undefined,
  canAssign: boolean,
): Promise<{ agentId: number | null; error: string | null }> {
  const proposal = await proposeSaleAgent(db, lotId, holderIds, staffActorId(audit));
  if (requested == null || requested === proposal.agentId) return { agentId: proposal.agentId, error: null };
  if (!canAssign) throw new HttpError(403, SALE_MESSAGES.agentNotAllowed);
  if (!(await isActiveStaff(db, requested))) return { agentId: null, error: SALE_MESSAGES.unknownAgent };
  return { agentId: requested, error: null };
}
