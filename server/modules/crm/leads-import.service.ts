import type { Kysely } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import {
  LEAD_IMPORT_PREVIEW_ROWS,
  LEAD_MESSAGES,
  type LeadChannel,
  type LeadImportDuplicateMode,
  type LeadImportIssue,
  type LeadImportPreview,
  type LeadImportResult,
  type LeadImportRow,
} from '../../../src/schemas/crm/leads';
import { recordChanges, staffActorId, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { HttpError, validationError } from '../../errors';
import { createNotifications, type CreatedNotifications } from '../../notifications/notifications.service';
import type { BroadcastEvent } from '../../realtime/broadcaster';
import { activeStaffIds } from './customers.repository';
import type { LeadFileResult, ParsedLeadRow } from './lead-import';
import { insertLead, type LeadScope } from './leads.repository';
import { foldContact } from './leads.service';

/**
 * The database side of the lead import (issue "CRM and sales"): which rows create a lead, which
 * are folded into an existing lead with the same phone or document ("MERGE", the default) or create
 * another one anyway ("KEEP"), and which repeat an earlier row of the file (left out). The preview
 * stores nothing; the import re-reads the file, plans again and stores everything in one
 * transaction, or nothing when any ERROR remains.
 *
 * The agent scope of the direct routes applies (docs/security.md 30.9): without 'Supervisar leads'
 * a caller matches, merges and sees only their own leads. A row whose phone or document is only
 * another agent's lead is OTRO_ASESOR under "MERGE" (left out, counted in `skip`, with a WARNING
 * that names no lead) and NUEVO under "KEEP" (as POST /api/leads with `on_duplicate: 'KEEP'`);
 * the other agent's lead is never changed and its id and name never leave the server.
 */

/** Options of one import (the multipart's text fields, parsed). */
export interface LeadImportSettings {
  channel: LeadChannel;
  agent_id?: number;
  duplicates: LeadImportDuplicateMode;
}

/** Most issues one answer lists (errors first). */
const MAX_ISSUES = 200;
/** Phones or documents per duplicate query (bounded IN lists on both dialects). */
const CHUNK = 500;

type Action = 'NUEVO' | 'FUSIONAR' | 'REPETIDO' | 'OTRO_ASESOR' | 'ERROR';
interface PlannedRow {
  parsed: ParsedLeadRow;
  action: Action;
  duplicateOf: { id: number; name: string } | null;
}

/** Existing leads with one contact key (phone or document): the caller's first, and whether others hold it. */
interface KeyMatches {
  /** The oldest lead within the caller's scope with that key. */
  inScope: Map<string, { id: number; name: string }>;
  /** Keys held only by leads out of the caller's scope (no id or name kept). */
  elsewhere: Set<string>;
}

/** Existing leads whose `column` is one of `values`, split by the caller's scope. */
async function matchesOf(db: Kysely<DB>, column: 'phone' | 'document_number', values: readonly string[], scope: LeadScope) {
  const matches: KeyMatches = { inScope: new Map(), elsewhere: new Set() };
  for (let i = 0; i < values.length; i += CHUNK) {
    const found = await db
      .selectFrom('leads')
      .select(['id', 'name', 'agent_id', column])
      .where(column, 'in', values.slice(i, i + CHUNK))
      .orderBy('id')
      .execute();
    for (const f of found) {
      const key = f[column];
      if (!key) continue;
      if (scope.supervisor || f.agent_id === scope.userId) {
        if (!matches.inScope.has(key)) matches.inScope.set(key, { id: f.id, name: f.name });
      } else matches.elsewhere.add(key);
    }
  }
  return matches;
}

/** Existing leads by phone and by document among those of `rows`, split by the caller's scope. */
async function existingContacts(db: Kysely<DB>, rows: readonly ParsedLeadRow[], scope: LeadScope) {
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  const documents = [...new Set(rows.flatMap((r) => (r.document_number ? [r.document_number] : [])))];
  return { byPhone: await matchesOf(db, 'phone', phones, scope), byDocument: await matchesOf(db, 'document_number', documents, scope) };
}

/**
 * The agent of the imported leads: the one chosen (a supervisor only; an active staff user), else
 * the caller when not a supervisor, else none.
 * @throws HttpError 422 on `agent_id`.
 */
async function importAgent(db: Kysely<DB>, scope: LeadScope, agentId: number | undefined): Promise<number | null> {
  if (agentId === undefined) return scope.supervisor ? null : scope.userId;
  if (!scope.supervisor && agentId !== scope.userId) throw validationError({ agent_id: [LEAD_MESSAGES.onlySupervisorAssigns] });
  if (!(await activeStaffIds(db, [agentId])).has(agentId)) throw validationError({ agent_id: [LEAD_MESSAGES.unknownAgent] });
  return agentId;
}

/** Plans every row of `file` against the leads within `scope` (see the module's comment). */
async function plan(db: Kysely<DB>, scope: LeadScope, file: LeadFileResult, settings: LeadImportSettings) {
  const issues: LeadImportIssue[] = [...file.issues];
  const existing = await existingContacts(
    db,
    file.rows.filter((r) => !r.invalid),
    scope,
  );
  const seen = new Map<string, number>();
  const rows: PlannedRow[] = file.rows.map((parsed) => {
    if (parsed.invalid) return { parsed, action: 'ERROR', duplicateOf: null };
    const keys = [parsed.phone ? `p:${parsed.phone}` : null, parsed.document_number ? `d:${parsed.document_number}` : null].filter(
      (k): k is string => k !== null,
    );
    const earlier = keys.map((k) => seen.get(k)).find((n) => n !== undefined);
    if (earlier !== undefined) {
      issues.push({ severity: 'WARNING', row: parsed.row, field: null, message: `Repite el contacto de la fila ${earlier}: se omite` });
      return { parsed, action: 'REPETIDO', duplicateOf: null };
    }
    for (const k of keys) seen.set(k, parsed.row);
    const { phone, document_number: document } = parsed;
    const duplicateOf =
      (phone ? existing.byPhone.inScope.get(phone) : undefined) ??
      (document ? existing.byDocument.inScope.get(document) : undefined) ??
      null;
    if (duplicateOf) return { parsed, action: settings.duplicates === 'MERGE' ? 'FUSIONAR' : 'NUEVO', duplicateOf };
    const heldElsewhere =
      (phone !== null && existing.byPhone.elsewhere.has(phone)) || (document !== null && existing.byDocument.elsewhere.has(document));
    if (heldElsewhere && settings.duplicates === 'MERGE') {
      issues.push({ severity: 'WARNING', row: parsed.row, field: null, message: LEAD_MESSAGES.importOtherAgent });
      return { parsed, action: 'OTRO_ASESOR', duplicateOf: null };
    }
    return { parsed, action: 'NUEVO', duplicateOf: null };
  });
  issues.sort((a, b) => (a.severity === b.severity ? (a.row ?? 0) - (b.row ?? 0) : a.severity === 'ERROR' ? -1 : 1));
  return { rows, issues };
}

const count = (rows: readonly PlannedRow[], ...actions: Action[]) => rows.filter((r) => actions.includes(r.action)).length;
/** Rows left out: repeats within the file and other agents' contacts. */
const skipped = (rows: readonly PlannedRow[]) => count(rows, 'REPETIDO', 'OTRO_ASESOR');

/**
 * POST /api/leads/imports/preview: what the file would do (nothing stored).
 * @throws HttpError 422 on `agent_id`.
 */
export async function previewLeadImport(
  deps: Pick<AppDeps, 'db'>,
  scope: LeadScope,
  file: LeadFileResult,
  settings: LeadImportSettings,
): Promise<LeadImportPreview> {
  await importAgent(deps.db, scope, settings.agent_id);
  const planned = await plan(deps.db, scope, file, settings);
  const fileErrors = planned.issues.filter((i) => i.severity === 'ERROR' && i.row === null).length;
  return {
    total: planned.rows.length,
    create: count(planned.rows, 'NUEVO'),
    merge: count(planned.rows, 'FUSIONAR'),
    skip: skipped(planned.rows),
    errors: count(planned.rows, 'ERROR') + fileErrors,
    rows: planned.rows.slice(0, LEAD_IMPORT_PREVIEW_ROWS).map((r): LeadImportRow => ({
      row: r.parsed.row,
      name: r.parsed.name,
      phone: r.parsed.phone,
      email: r.parsed.email,
      channel: r.parsed.channel ?? settings.channel,
      campaign: r.parsed.campaign,
      received_at: r.parsed.received_at,
      action: r.action,
      duplicate_of: r.duplicateOf,
    })),
    issues: planned.issues.slice(0, MAX_ISSUES),
  };
}

/**
 * POST /api/leads/imports: stores the file's leads in one transaction (new ones with their history,
 * merges as {@link foldContact}); the agent gets one notification for the lot.
 * @throws HttpError 422 (`errors.file`) when the file has any ERROR; 422 on `agent_id`.
 * @returns the counts and the events to publish after commit.
 */
export async function commitLeadImport(
  deps: AppDeps,
  audit: AuditContext,
  scope: LeadScope,
  file: LeadFileResult,
  settings: LeadImportSettings,
): Promise<{ result: LeadImportResult; events: BroadcastEvent[] }> {
  const agentId = await importAgent(deps.db, scope, settings.agent_id);
  // Errors come from the file alone (the plan adds warnings only): refused before any query.
  const errors = file.issues.filter((i) => i.severity === 'ERROR');
  if (errors.length > 0) {
    const first = [...errors].sort((a, b) => (a.row ?? 0) - (b.row ?? 0))[0]!;
    throw new HttpError(422, LEAD_MESSAGES.importHasErrors, {
      file: [`${LEAD_MESSAGES.importHasErrors}${first.row ? ` (fila ${first.row}: ${first.message})` : `: ${first.message}`}`],
    });
  }
  if (file.rows.length === 0) throw validationError({ file: [LEAD_MESSAGES.importEmpty] });
  const now = deps.clock.now().toISOString();
  const actor = staffActorId(audit);
  const { created, notified, planned } = await deps.db.transaction().execute(async (trx) => {
    // Planned inside the transaction: the leads merged are those in the caller's scope now.
    const planned = await plan(trx, scope, file, settings);
    const changes: Parameters<typeof recordChanges>[2][number][] = [];
    let createdCount = 0;
    for (const { parsed, action, duplicateOf } of planned.rows) {
      const channel = parsed.channel ?? settings.channel;
      if (action === 'FUSIONAR' && duplicateOf) {
        await foldContact(trx, audit, duplicateOf.id, { ...parsed, channel, notes: 'Importado desde archivo', subdivision_ids: [] });
      } else if (action === 'NUEVO') {
        const values = {
          name: parsed.name,
          phone: parsed.phone,
          email: parsed.email,
          id_document_type: parsed.id_document_type,
          document_number: parsed.document_number,
          channel,
          campaign: parsed.campaign,
          notes: null,
          agent_id: agentId,
          lost_reason: null,
          next_follow_up_at: null,
          customer_id: null,
          last_activity_at: null,
          received_at: parsed.received_at ?? now,
          created_by: actor,
          created_at: now,
          updated_at: now,
        };
        const id = await insertLead(trx, values);
        changes.push({ entity: 'leads', recordId: id, action: 'CREATE', after: { id, ...values, status: 'POR_ATENDER', version: 1 } });
        createdCount += 1;
      }
    }
    await recordChanges(trx, audit, changes);
    const notice: CreatedNotifications =
      agentId !== null && agentId !== actor && createdCount > 0
        ? await createNotifications(trx, deps.clock, [{ userType: 'COLLABORATOR', accountId: agentId }], {
            type: 'CUSTOMER',
            title: LEAD_MESSAGES.importedTitle,
            detail: `<p>Se le asignaron <b>${createdCount}</b> leads importados.</p>`,
            route: `${AUTH_ROUTES.leads.path}?status=POR_ATENDER`,
          })
        : { ids: [], events: [] };
    return { created: createdCount, notified: notice, planned };
  });
  return {
    result: { created, merged: count(planned.rows, 'FUSIONAR'), skipped: skipped(planned.rows) },
    events: notified.events,
  };
}
