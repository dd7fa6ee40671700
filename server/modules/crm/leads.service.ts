import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { AUTH_ROUTES } from '../../../src/config/paths';
import {
  LEAD_CHANNEL_LABELS,
  LEAD_MESSAGES,
  LEAD_TRANSITIONS,
  MAX_LEAD_ACTIVITIES,
  MAX_LEAD_DUPLICATES,
  OPEN_LEAD_STATUSES,
  leadRuleErrors,
  normalizePhone,
  type convertLeadRequestSchema,
  type createLeadActivityRequestSchema,
  type createLeadRequestSchema,
  type Lead,
  type LeadActivity,
  type LeadChannel,
  type LeadDuplicatesQuery,
  type LeadsQuery,
  type LeadsSummary,
  type LeadsSummaryQuery,
  type mergeLeadRequestSchema,
  type updateLeadRequestSchema,
} from '../../../src/schemas/crm/leads';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { assertVersionedUpdate, staleRecord } from '../../db/versions';
import { conflict, HttpError, notFound, validationError, type FieldErrors } from '../../errors';
import { createNotifications, escapeHtml, type CreatedNotifications } from '../../notifications/notifications.service';
import type { BroadcastEvent } from '../../realtime/broadcaster';
import { activeStaffIds, customerRow, updateCustomerColumns } from './customers.repository';
import { createCustomer, type CreateCustomerBody } from './customers.service';
import {
  countLeadActivities,
  existingSubdivisionIds,
  findLeadDuplicateIds,
  insertLead,
  insertLeadActivity,
  leadRow,
  leadSummary,
  leadsByIds,
  listLeadActivities,
  listLeadIds,
  setLeadSubdivisions,
  updateLeadColumns,
  type LeadScope,
  type StoredLead,
} from './leads.repository';

export type { LeadScope } from './leads.repository';
/** Parsed POST /api/leads body. */
export type CreateLeadBody = z.output<typeof createLeadRequestSchema>;
/** Parsed PATCH /api/leads/{id} body. */
export type UpdateLeadBody = z.output<typeof updateLeadRequestSchema>;
/** Parsed POST /api/leads/{id}/merge body. */
export type MergeLeadBody = z.output<typeof mergeLeadRequestSchema>;
/** Parsed POST /api/leads/{id}/activities body. */
export type CreateLeadActivityBody = z.output<typeof createLeadActivityRequestSchema>;
/** Parsed POST /api/leads/{id}/convert body. */
export type ConvertLeadBody = z.output<typeof convertLeadRequestSchema>;

/** A lead after a change, and the realtime events to publish now that it is committed. */
export interface LeadChange {
  lead: Lead;
  events: BroadcastEvent[];
}

/** Most activities one answer lists (the newest). */
const ACTIVITIES_SHOWN = 200;

const nowOf = (deps: Pick<AppDeps, 'clock'>) => deps.clock.now().toISOString();

/** One page of the leads the caller may see (GET /api/leads). */
export async function listLeads(deps: Pick<AppDeps, 'db' | 'clock'>, query: LeadsQuery, scope: LeadScope): Promise<Page<Lead>> {
  const now = nowOf(deps);
  const page = await listLeadIds(deps.db, query, scope, now);
  return {
    data: await leadsByIds(
      deps.db,
      page.data.map((r) => r.id),
      now,
    ),
    meta: page.meta,
  };
}

/** Leads per status and overdue ones under the filters (GET /api/leads/summary). */
export function summarizeLeads(deps: Pick<AppDeps, 'db' | 'clock'>, query: LeadsSummaryQuery, scope: LeadScope): Promise<LeadsSummary> {
  return leadSummary(deps.db, query, scope, nowOf(deps));
}

/**
 * The stored lead if the caller may act on it.
 * @throws HttpError 404 when missing; 403 {@link LEAD_MESSAGES}.notYours when another agent's and the caller is no supervisor.
 */
async function visibleLead(db: Kysely<DB>, id: number, scope: LeadScope): Promise<StoredLead> {
  const row = await leadRow(db, id);
  if (!row) throw notFound();
  if (!scope.supervisor && row.agent_id !== scope.userId) throw new HttpError(403, LEAD_MESSAGES.notYours);
  return row;
}

/** One lead. @throws HttpError 404; 403 when out of the caller's scope. */
export async function getLead(deps: Pick<AppDeps, 'db' | 'clock'>, id: number, scope: LeadScope): Promise<Lead> {
  await visibleLead(deps.db, id, scope);
  return leadById(deps, id);
}

async function leadById(deps: Pick<AppDeps, 'db' | 'clock'>, id: number): Promise<Lead> {
  const [lead] = await leadsByIds(deps.db, [id], nowOf(deps));
  if (!lead) throw notFound();
  return lead;
}

/**
 * Leads sharing the phone or document (GET /api/leads/duplicates), any agent's: the create form
 * offers to merge into one. Out of the caller's scope they show only name, status and agent.
 */
export async function findLeadDuplicates(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  query: LeadDuplicatesQuery,
  scope: LeadScope,
): Promise<Lead[]> {
  const phone = query.phone ? normalizePhone(query.phone) : null;
  if (!phone && !query.document_number) return [];
  const ids = await findLeadDuplicateIds(deps.db, { phone, document_number: query.document_number }, MAX_LEAD_DUPLICATES, query.except_id);
  const leads = await leadsByIds(deps.db, ids, nowOf(deps));
  return leads.map((lead) =>
    scope.supervisor || lead.agent?.id === scope.userId
      ? lead
      : { ...lead, phone: null, email: null, document_number: null, id_document_type: null, notes: null, campaign: null, customer: null },
  );
}

/** The fields the stored rules read. */
interface CheckedFields {
  subdivision_ids?: readonly number[];
  agent_id?: number | null;
}

/**
 * 422 field errors of the rules that need the database: the subdivisions exist; the agent is an
 * active staff user, and someone other than the caller only for a supervisor.
 */
async function storedRuleErrors(
  db: Kysely<DB>,
  fields: CheckedFields,
  scope: LeadScope,
  currentAgent?: number | null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (fields.subdivision_ids && fields.subdivision_ids.length > 0) {
    const existing = await existingSubdivisionIds(db, fields.subdivision_ids);
    if (fields.subdivision_ids.some((id) => !existing.has(id))) errors.subdivision_ids = [LEAD_MESSAGES.unknownSubdivision];
  }
  if (fields.agent_id !== undefined && fields.agent_id !== currentAgent) {
    if (!scope.supervisor && fields.agent_id !== scope.userId) errors.agent_id = [LEAD_MESSAGES.onlySupervisorAssigns];
    else if (fields.agent_id !== null && !(await activeStaffIds(db, [fields.agent_id])).has(fields.agent_id)) {
      errors.agent_id = [LEAD_MESSAGES.unknownAgent];
    }
  }
  return errors;
}

/**
 * The "lead assigned" notification (issue "CRM and sales"): to the new agent, with a route to the
 * lead; nothing when they assigned it to themselves. Joins the caller's transaction.
 */
export async function notifyAssigned(
  trx: Kysely<DB>,
  deps: Pick<AppDeps, 'clock'>,
  audit: AuditContext,
  leadId: number,
): Promise<CreatedNotifications> {
  const row = await leadRow(trx, leadId);
  if (!row || row.agent_id === null || row.agent_id === staffActorId(audit)) return { ids: [], events: [] };
  const channel = LEAD_CHANNEL_LABELS[row.channel as LeadChannel] ?? row.channel;
  return createNotifications(trx, deps.clock, [{ userType: 'COLLABORATOR', accountId: row.agent_id }], {
    type: 'CUSTOMER',
    title: LEAD_MESSAGES.assignedTitle,
    detail: `<p>Se le asignó el lead <b>${escapeHtml(row.name)}</b> (${escapeHtml(channel)}${row.phone ? `, ${escapeHtml(row.phone)}` : ''}).</p>`,
    route: leadRoute(leadId),
  });
}

/** The app route that opens a lead: /CRM/LEADS?lead={id}. */
export const leadRoute = (id: number) => `${AUTH_ROUTES.leads.path}?lead=${id}`;

/**
 * Creates a lead (POST /api/leads); the agent defaults to the caller. Without `on_duplicate:
 * 'KEEP'` a lead with the same phone or document is a 409 (the form offers merge or keep both).
 * @throws HttpError 422 on the stored rules; 409 {@link LEAD_MESSAGES}.duplicate.
 */
export async function createLead(deps: AppDeps, audit: AuditContext, scope: LeadScope, body: CreateLeadBody): Promise<LeadChange> {
  const agentId = body.agent_id === undefined ? scope.userId : body.agent_id;
  const errors = await storedRuleErrors(deps.db, { subdivision_ids: body.subdivision_ids, agent_id: agentId }, scope, scope.userId);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (body.on_duplicate !== 'KEEP') {
    const duplicates = await findLeadDuplicateIds(deps.db, { phone: body.phone, document_number: body.document_number }, 1);
    if (duplicates.length > 0) throw conflict(LEAD_MESSAGES.duplicate);
  }
  const now = nowOf(deps);
  const { id, notified } = await deps.db.transaction().execute(async (trx) => {
    const leadId = await insertLead(trx, {
      name: body.name,
      phone: body.phone ?? null,
      email: body.email ?? null,
      id_document_type: body.document_number ? (body.id_document_type ?? null) : null,
      document_number: body.document_number ?? null,
      channel: body.channel,
      campaign: body.campaign ?? null,
      notes: body.notes ?? null,
      agent_id: agentId,
      lost_reason: null,
      next_follow_up_at: body.next_follow_up_at ? new Date(body.next_follow_up_at).toISOString() : null,
      customer_id: null,
      last_activity_at: null,
      received_at: now,
      created_by: staffActorId(audit),
      created_at: now,
      updated_at: now,
    });
    await setLeadSubdivisions(trx, leadId, body.subdivision_ids ?? []);
    await recordChange(trx, audit, { entity: 'leads', recordId: leadId, action: 'CREATE', after: await leadRow(trx, leadId) });
    return { id: leadId, notified: await notifyAssigned(trx, deps, audit, leadId) };
  });
  return { lead: await leadById(deps, id), events: notified.events };
}

/**
 * Updates a lead (PATCH /api/leads/{id}). A status change follows {@link LEAD_TRANSITIONS};
 * NO_CONCRETADO needs `lost_reason` (cleared when reopened); CONCRETADO needs a customer. Changing
 * the agent (supervisors only) notifies the new one.
 * @throws HttpError 404; 403 out of scope; 422 on the rules; 409 when stale (nothing stored).
 */
export async function updateLead(
  deps: AppDeps,
  audit: AuditContext,
  scope: LeadScope,
  id: number,
  body: UpdateLeadBody,
): Promise<LeadChange> {
  const stored = await visibleLead(deps.db, id, scope);
  const { version, subdivision_ids, ...changes } = body;
  const errors: FieldErrors = {};
  const merged = { ...stored, ...changes };
  for (const [field, message] of Object.entries(leadRuleErrors(merged))) errors[field] = [message];
  if (changes.status !== undefined && changes.status !== stored.status) {
    if (!LEAD_TRANSITIONS[stored.status].includes(changes.status)) errors.status = [LEAD_MESSAGES.transition];
    else if (changes.status === 'CONCRETADO' && stored.customer_id === null) errors.status = [LEAD_MESSAGES.needsCustomer];
  }
  if (merged.status === 'NO_CONCRETADO' && !merged.lost_reason) errors.lost_reason = [LEAD_MESSAGES.reasonRequired];
  Object.assign(errors, await storedRuleErrors(deps.db, { subdivision_ids, agent_id: changes.agent_id }, scope, stored.agent_id));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (merged.status !== 'NO_CONCRETADO') changes.lost_reason = null;
  if (changes.document_number === null) changes.id_document_type = null;
  const values = {
    ...changes,
    ...(changes.next_follow_up_at ? { next_follow_up_at: new Date(changes.next_follow_up_at).toISOString() } : {}),
    updated_at: nowOf(deps),
  };
  const notified = await deps.db.transaction().execute(async (trx) => {
    const before = await leadRow(trx, id);
    const updated = await updateLeadColumns(trx, id, values, version);
    await assertVersionedUpdate(trx, 'leads', id, updated, notFound);
    if (subdivision_ids !== undefined) await setLeadSubdivisions(trx, id, subdivision_ids);
    await recordChange(trx, audit, { entity: 'leads', recordId: id, action: 'UPDATE', before, after: await leadRow(trx, id) });
    return changes.agent_id !== undefined && changes.agent_id !== before?.agent_id
      ? notifyAssigned(trx, deps, audit, id)
      : { ids: [], events: [] };
  });
  return { lead: await leadById(deps, id), events: notified.events };
}

/** A lead's activity log, newest first (GET /api/leads/{id}/activities). @throws HttpError 404; 403. */
export async function getLeadActivities(deps: Pick<AppDeps, 'db'>, id: number, scope: LeadScope): Promise<LeadActivity[]> {
  await visibleLead(deps.db, id, scope);
  return listLeadActivities(deps.db, id, ACTIVITIES_SHOWN);
}

/**
 * Logs an activity (POST /api/leads/{id}/activities): a POR_ATENDER lead becomes EN_ATENCION; the
 * lead's last activity and, when sent, next follow-up are set.
 * @throws HttpError 404; 403; 422 when in the future or the log is full.
 */
export async function addLeadActivity(
  deps: AppDeps,
  audit: AuditContext,
  scope: LeadScope,
  id: number,
  body: CreateLeadActivityBody,
): Promise<LeadActivity> {
  await visibleLead(deps.db, id, scope);
  const now = deps.clock.now();
  const occurredAt = body.occurred_at ? new Date(body.occurred_at) : now;
  // A minute of tolerance for the browser's clock.
  if (occurredAt.getTime() > now.getTime() + 60_000) throw validationError({ occurred_at: [LEAD_MESSAGES.futureActivity] });
  if ((await countLeadActivities(deps.db, id)) >= MAX_LEAD_ACTIVITIES) throw conflict(LEAD_MESSAGES.tooManyActivities);
  const activityId = await deps.db.transaction().execute(async (trx) => {
    const before = await leadRow(trx, id);
    if (!before) throw notFound();
    const inserted = await insertLeadActivity(trx, {
      lead_id: id,
      kind: body.kind,
      outcome: body.outcome,
      occurred_at: occurredAt.toISOString(),
      user_id: staffActorId(audit),
      created_at: now.toISOString(),
    });
    const lastActivity =
      before.last_activity_at && before.last_activity_at > occurredAt.toISOString() ? before.last_activity_at : occurredAt.toISOString();
    await updateLeadColumns(trx, id, {
      last_activity_at: lastActivity,
      ...(before.status === 'POR_ATENDER' ? { status: 'EN_ATENCION' as const } : {}),
      ...(body.next_follow_up_at !== undefined
        ? { next_follow_up_at: body.next_follow_up_at ? new Date(body.next_follow_up_at).toISOString() : null }
        : {}),
      updated_at: now.toISOString(),
    });
    await recordChange(trx, audit, { entity: 'leads', recordId: id, action: 'UPDATE', before, after: await leadRow(trx, id) });
    return inserted;
  });
  const [activity] = (await listLeadActivities(deps.db, id, ACTIVITIES_SHOWN)).filter((a) => a.id === activityId);
  if (!activity) throw notFound();
  return activity;
}

/**
 * Folds a new contact into an existing lead (POST /api/leads/{id}/merge, "Fusionar"): blank
 * fields take the new values, subdivisions are joined, a note in the log records the contact
 * (channel, campaign, notes); a NO_CONCRETADO lead reopens as POR_ATENDER (someone asked again).
 * The agent is kept.
 * @throws HttpError 404; 403; 422 on the subdivisions.
 */
export async function mergeLead(deps: AppDeps, audit: AuditContext, scope: LeadScope, id: number, body: MergeLeadBody): Promise<Lead> {
  await visibleLead(deps.db, id, scope);
  const errors = await storedRuleErrors(deps.db, { subdivision_ids: body.subdivision_ids }, scope);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  await deps.db.transaction().execute((trx) => foldContact(trx, audit, id, body));
  return leadById(deps, id);
}

/** A new contact's data as {@link foldContact} reads it. */
export type ContactBody = Pick<
  MergeLeadBody,
  'name' | 'phone' | 'email' | 'id_document_type' | 'document_number' | 'campaign' | 'notes' | 'subdivision_ids'
> & {
  channel: LeadChannel;
};

/**
 * Folds a contact into lead `id` inside the caller's transaction (merge and import): blank fields
 * take the contact's values, subdivisions are joined, a NOTA records the contact, a NO_CONCRETADO
 * lead reopens as POR_ATENDER; the history row is written.
 * @throws HttpError 404 when the lead is gone.
 */
export async function foldContact(trx: Kysely<DB>, audit: AuditContext, id: number, body: ContactBody): Promise<void> {
  const now = audit.clock.now().toISOString();
  const before = await leadRow(trx, id);
  if (!before) throw notFound();
  const fill = <T>(current: T | null, incoming: T | null | undefined): T | null => current ?? incoming ?? null;
  const documentNumber = fill(before.document_number, body.document_number);
  await updateLeadColumns(trx, id, {
    phone: fill(before.phone, body.phone),
    email: fill(before.email, body.email),
    document_number: documentNumber,
    id_document_type: before.document_number ? before.id_document_type : documentNumber ? (body.id_document_type ?? null) : null,
    campaign: fill(before.campaign, body.campaign),
    ...(before.status === 'NO_CONCRETADO' ? { status: 'POR_ATENDER' as const, lost_reason: null } : {}),
    updated_at: now,
  });
  await setLeadSubdivisions(trx, id, [...before.subdivision_ids, ...(body.subdivision_ids ?? [])]);
  const channel = LEAD_CHANNEL_LABELS[body.channel];
  const parts = [`Nuevo contacto fusionado: ${body.name} por ${channel}`, body.campaign ? `campaña ${body.campaign}` : null, body.notes];
  await insertLeadActivity(trx, {
    lead_id: id,
    kind: 'NOTA',
    outcome: parts.filter(Boolean).join('. ').slice(0, 1000),
    occurred_at: now,
    user_id: staffActorId(audit),
    created_at: now,
  });
  await recordChange(trx, audit, { entity: 'leads', recordId: id, action: 'UPDATE', before, after: await leadRow(trx, id) });
}

/**
 * Converts a lead into a customer in one step (POST /api/leads/{id}/convert): links an existing
 * customer or creates one (the customer rules of POST /api/customers apply) in the same
 * transaction as the link. A POR_ATENDER lead becomes EN_ATENCION; CONCRETADO comes when that
 * customer reserves or buys ({@link concludeLeadsOfCustomer}). The customer keeps the lead's agent
 * (a new one unless the form names another; a linked one when it has none), and the lead stays
 * linked, so the sales report reads its channel once it concludes.
 * @throws HttpError 404; 403; 409 when already converted or stale; 422 on the customer.
 */
export async function convertLead(deps: AppDeps, audit: AuditContext, scope: LeadScope, id: number, body: ConvertLeadBody): Promise<Lead> {
  const stored = await visibleLead(deps.db, id, scope);
  if (stored.customer_id !== null) throw conflict(LEAD_MESSAGES.alreadyConverted);
  if (body.version !== undefined && body.version !== stored.version) throw staleRecord();
  const link = async (trx: Kysely<DB>, customerId: number) => {
    const before = await leadRow(trx, id);
    const updated = await updateLeadColumns(
      trx,
      id,
      { customer_id: customerId, ...(before?.status === 'POR_ATENDER' ? { status: 'EN_ATENCION' as const } : {}), updated_at: nowOf(deps) },
      stored.version,
    );
    await assertVersionedUpdate(trx, 'leads', id, updated, notFound);
    await recordChange(trx, audit, { entity: 'leads', recordId: id, action: 'UPDATE', before, after: await leadRow(trx, id) });
  };
  // The lead's agent goes with it (docs/domain.md "Sales": who is the selling agent), when still active.
  const leadAgent =
    stored.agent_id !== null && (await activeStaffIds(deps.db, [stored.agent_id])).has(stored.agent_id) ? stored.agent_id : null;
  if ('customer_id' in body) {
    const customer = await customerRow(deps.db, body.customer_id);
    if (!customer) throw validationError({ customer_id: [LEAD_MESSAGES.unknownCustomer] });
    await deps.db.transaction().execute(async (trx) => {
      await link(trx, body.customer_id);
      // A customer without an asesor takes the lead's; one with an asesor keeps theirs.
      if (leadAgent !== null && customer.agent_id === null) {
        const before = await customerRow(trx, body.customer_id);
        await updateCustomerColumns(trx, body.customer_id, { agent_id: leadAgent, updated_at: nowOf(deps) });
        await recordChange(trx, audit, {
          entity: 'customers',
          recordId: body.customer_id,
          action: 'UPDATE',
          before,
          after: await customerRow(trx, body.customer_id),
        });
      }
    });
  } else {
    const customer = body.customer as CreateCustomerBody;
    await createCustomer(deps, audit, { ...customer, agent_id: customer.agent_id ?? leadAgent }, link);
  }
  return leadById(deps, id);
}

/**
 * Marks CONCRETADO the open leads converted into `customerId` (a reservation or a sale followed;
 * issue "CRM and sales"). Joins the caller's transaction and writes their history.
 */
export async function concludeLeadsOfCustomer(trx: Kysely<DB>, audit: AuditContext, customerId: number): Promise<void> {
  const open = await trx
    .selectFrom('leads')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', 'in', [...OPEN_LEAD_STATUSES])
    .execute();
  for (const { id } of open) {
    const before = await leadRow(trx, id);
    await updateLeadColumns(trx, id, { status: 'CONCRETADO', lost_reason: null, updated_at: audit.clock.now().toISOString() });
    await recordChange(trx, audit, { entity: 'leads', recordId: id, action: 'UPDATE', before, after: await leadRow(trx, id) });
  }
}
