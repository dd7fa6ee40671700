import { sql, type Insertable, type Kysely, type Updateable, type UpdateResult } from 'kysely';
import { OPEN_LEAD_STATUSES, type Lead, type LeadActivity, type LeadsQuery, type LeadsSummaryQuery } from '../../../src/schemas/crm/leads';
import type { StaffOption } from '../../../src/schemas/crm/customers';
import type { DB, LeadsTable } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql } from '../../db/text-search';
import { nextVersion } from '../../db/versions';
import { normalizeEmail } from '../configuracion/users.repository';
import { displayName } from './customers.repository';

/** SQL of CRM leads (`leads`, `lead_subdivisions`, `lead_activities`; migration 0017). */

/** Whose leads a caller may see: everyone's (a supervisor) or only `agentId`'s. */
export interface LeadScope {
  /** The caller (a staff user). */
  userId: number;
  /** Holds 'Supervisar leads'. */
  supervisor: boolean;
}

/** The filters of the list and the summary, with the caller's scope applied. */
function filtered(
  db: Kysely<DB>,
  filters: LeadsSummaryQuery & { status?: LeadsQuery['status']; overdue?: 'true' | 'false'; customer_id?: number },
  scope: LeadScope,
  now: string,
) {
  let query = db.selectFrom('leads');
  if (!scope.supervisor || filters.mine === 'true') query = query.where('leads.agent_id', '=', scope.userId);
  if (filters.q) {
    // Name and campaign: the folded `search_text` (migration 0034; server/db/text-search.ts).
    const pattern = searchPatternSql(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb('leads.search_text', 'like', pattern),
        eb('leads.phone', 'like', pattern),
        eb(sql<string>`lower(leads.email)`, 'like', pattern),
        eb('leads.document_number', 'like', pattern),
      ]),
    );
  }
  if (filters.status) query = query.where('leads.status', '=', filters.status);
  if (filters.channel) query = query.where('leads.channel', '=', filters.channel);
  if (filters.agent_id !== undefined) query = query.where('leads.agent_id', '=', filters.agent_id);
  if (filters.customer_id !== undefined) query = query.where('leads.customer_id', '=', filters.customer_id);
  if (filters.subdivision_id !== undefined) {
    const subdivisionId = filters.subdivision_id;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('lead_subdivisions')
          .select('lead_subdivisions.lead_id')
          .whereRef('lead_subdivisions.lead_id', '=', 'leads.id')
          .where('lead_subdivisions.subdivision_id', '=', subdivisionId),
      ),
    );
  }
  if (filters.overdue === 'true') {
    query = query.where('leads.status', 'in', [...OPEN_LEAD_STATUSES]).where('leads.next_follow_up_at', '<', now);
  }
  return query;
}

/** One page of lead ids in order, and the total (see `leadsQuerySchema`); `now` decides overdue. */
export function listLeadIds(db: Kysely<DB>, filters: LeadsQuery, scope: LeadScope, now: string): Promise<Page<{ id: number }>> {
  const { field, direction } = parseSort<'received_at' | 'next_follow_up_at' | 'name' | 'updated_at'>(filters.sort, '-received_at');
  return paginate(filtered(db, filters, scope, now), filters, (q) =>
    q
      .select('leads.id')
      // Leads without a follow-up go last whichever the direction.
      .$if(field === 'next_follow_up_at', (qq) => qq.orderBy(sql`leads.next_follow_up_at is null`))
      .orderBy(`leads.${field}`, direction)
      .orderBy('leads.id', direction),
  );
}

/** Leads per status and the overdue ones under the summary's filters. */
export async function leadSummary(
  db: Kysely<DB>,
  filters: LeadsSummaryQuery,
  scope: LeadScope,
  now: string,
): Promise<{ counts: Record<string, number>; overdue: number }> {
  const rows = await filtered(db, filters, scope, now)
    .select(['leads.status', sql<number>`count(*)`.as('n')])
    .groupBy('leads.status')
    .execute();
  const [overdue] = await filtered(db, { ...filters, overdue: 'true' }, scope, now)
    .select(sql<number>`count(*)`.as('n'))
    .execute();
  return { counts: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])), overdue: Number(overdue?.n ?? 0) };
}

/**
 * Leads the caller may see (the list's scope) received in [`fromInstant`, `toInstant`) (ISO
 * instants), and how many of them are CONCRETADO now: Inicio's leads card, "this month"
 * (docs/dashboard.md).
 */
export async function leadArrivals(
  db: Kysely<DB>,
  scope: LeadScope,
  fromInstant: string,
  toInstant: string,
  now: string,
): Promise<{ arrived: number; converted: number }> {
  const [row] = await filtered(db, {}, scope, now)
    .where('leads.received_at', '>=', fromInstant)
    .where('leads.received_at', '<', toInstant)
    .select([
      sql<number>`count(*)`.as('arrived'),
      sql<number>`sum(case when leads.status = 'CONCRETADO' then 1 else 0 end)`.as('converted'),
    ])
    .execute();
  return { arrived: Number(row?.arrived ?? 0), converted: Number(row?.converted ?? 0) };
}

const staffOption = (id: number | null, name: string | null, surname: string | null): StaffOption | null =>
  id !== null && name !== null ? { id, name, surname: surname ?? '' } : null;

/** Leads by id → wire leads (agent, customer and subdivisions joined), in the order of `ids`; `now` decides `overdue`. */
export async function leadsByIds(db: Kysely<DB>, ids: readonly number[], now: string): Promise<Lead[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('leads')
    .leftJoin('users as agent', 'agent.id', 'leads.agent_id')
    .leftJoin('customers as customer', 'customer.id', 'leads.customer_id')
    .selectAll('leads')
    .select([
      'agent.name as agent_name',
      'agent.surname as agent_surname',
      'customer.name as customer_name',
      'customer.surname as customer_surname',
    ])
    .where('leads.id', 'in', [...ids])
    .execute();
  const interests = await db
    .selectFrom('lead_subdivisions')
    .innerJoin('subdivisions', 'subdivisions.id', 'lead_subdivisions.subdivision_id')
    .select(['lead_subdivisions.lead_id', 'subdivisions.id', 'subdivisions.name'])
    .where('lead_subdivisions.lead_id', 'in', [...ids])
    .orderBy('subdivisions.name')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const open = (OPEN_LEAD_STATUSES as readonly string[]).includes(r.status);
    return [
      {
        id: r.id,
        name: r.name,
        phone: r.phone,
        email: r.email,
        id_document_type: r.id_document_type,
        document_number: r.document_number,
        channel: r.channel,
        campaign: r.campaign,
        notes: r.notes,
        subdivisions: interests.filter((i) => i.lead_id === id).map((i) => ({ id: i.id, name: i.name })),
        agent: staffOption(r.agent_id, r.agent_name, r.agent_surname),
        status: r.status,
        lost_reason: r.lost_reason,
        next_follow_up_at: r.next_follow_up_at,
        overdue: open && r.next_follow_up_at !== null && r.next_follow_up_at < now,
        customer:
          r.customer_id !== null && r.customer_name !== null
            ? { id: r.customer_id, display_name: displayName({ name: r.customer_name, surname: r.customer_surname }) }
            : null,
        last_activity_at: r.last_activity_at,
        received_at: r.received_at,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}

/** The stored row of a lead, with its subdivision ids (for the change history and the rules). */
export async function leadRow(db: Kysely<DB>, id: number) {
  const row = await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const subdivisions = await db
    .selectFrom('lead_subdivisions')
    .select('subdivision_id')
    .where('lead_id', '=', id)
    .orderBy('subdivision_id')
    .execute();
  return { ...row, subdivision_ids: subdivisions.map((s) => s.subdivision_id) };
}
export type StoredLead = NonNullable<Awaited<ReturnType<typeof leadRow>>>;

/** Inserts a lead (e-mail stored lower-case). @returns its id. */
export async function insertLead(db: Kysely<DB>, values: Insertable<LeadsTable>): Promise<number> {
  const { id } = await db
    .insertInto('leads')
    .values({ ...values, email: values.email ? normalizeEmail(values.email) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Updates a lead's columns and raises its version; with `version`, only that version of the row.
 * @returns the UpdateResult (0 rows: gone or stale).
 */
export function updateLeadColumns(db: Kysely<DB>, id: number, values: Updateable<LeadsTable>, version?: number): Promise<UpdateResult> {
  const set = values.email ? { ...values, email: normalizeEmail(values.email) } : values;
  return db
    .updateTable('leads')
    .set({ ...set, version: nextVersion() })
    .where('id', '=', id)
    .$if(version !== undefined, (q) => q.where('version', '=', version ?? 0))
    .executeTakeFirstOrThrow();
}

/** Replaces a lead's subdivisions of interest. */
export async function setLeadSubdivisions(db: Kysely<DB>, leadId: number, subdivisionIds: readonly number[]): Promise<void> {
  await db.deleteFrom('lead_subdivisions').where('lead_id', '=', leadId).execute();
  const unique = [...new Set(subdivisionIds)];
  if (unique.length > 0) {
    await db
      .insertInto('lead_subdivisions')
      .values(unique.map((subdivision_id) => ({ lead_id: leadId, subdivision_id })))
      .execute();
  }
}

/** Which of `ids` are subdivisions. */
export async function existingSubdivisionIds(db: Kysely<DB>, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('subdivisions')
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Leads with the same normalised phone or document number (any agent's), newest first, at most
 * `limit`, leaving out `exceptId`.
 */
export async function findLeadDuplicateIds(
  db: Kysely<DB>,
  match: { phone?: string | null; document_number?: string | null },
  limit: number,
  exceptId?: number,
): Promise<number[]> {
  if (!match.phone && !match.document_number) return [];
  const rows = await db
    .selectFrom('leads')
    .select('id')
    .where((eb) =>
      eb.or([
        ...(match.phone ? [eb('phone', '=', match.phone)] : []),
        ...(match.document_number ? [eb('document_number', '=', match.document_number)] : []),
      ]),
    )
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId ?? 0))
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** A lead's activity log, newest first (at most `limit`). */
export async function listLeadActivities(db: Kysely<DB>, leadId: number, limit: number): Promise<LeadActivity[]> {
  const rows = await db
    .selectFrom('lead_activities')
    .leftJoin('users', 'users.id', 'lead_activities.user_id')
    .select([
      'lead_activities.id',
      'lead_activities.kind',
      'lead_activities.outcome',
      'lead_activities.occurred_at',
      'lead_activities.user_id',
      'users.name as user_name',
      'users.surname as user_surname',
    ])
    .where('lead_activities.lead_id', '=', leadId)
    .orderBy('lead_activities.occurred_at', 'desc')
    .orderBy('lead_activities.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    outcome: r.outcome,
    occurred_at: r.occurred_at,
    user: staffOption(r.user_id, r.user_name, r.user_surname),
  }));
}

/** How many activities a lead has. */
export async function countLeadActivities(db: Kysely<DB>, leadId: number): Promise<number> {
  const row = await db
    .selectFrom('lead_activities')
    .select(sql<number>`count(*)`.as('n'))
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts an activity. @returns its id. */
export async function insertLeadActivity(
  db: Kysely<DB>,
  values: { lead_id: number; kind: string; outcome: string; occurred_at: string; user_id: number | null; created_at: string },
): Promise<number> {
  const { id } = await db.insertInto('lead_activities').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}
