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

type Action = 'NUEVO' | 'FUSIONAR' | 'REPETIDO' | 'ERROR';
interface PlannedRow {
  parsed: ParsedLeadRow;
  action: Action;
  duplicateOf: { id: number; name: string } | null;
}

/** Existing leads by phone and by document among those of `rows`. */
async function existingContacts(db: Kysely<DB>, rows: readonly ParsedLeadRow[]) {
  const byPhone = new Map<string, { id: number; name: string }>();
  const byDocument = new Map<string, { id: number; name: string }>();
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  const documents = [...new Set(rows.flatMap((r) => (r.document_number ? [r.document_number] : [])))];
  for (let i = 0; i < phones.length; i += CHUNK) {
    const found = await db
      .selectFrom('leads')
      .select(['id', 'name', 'phone'])
      .where('phone', 'in', phones.slice(i, i + CHUNK))
      .orderBy('id')
      .execute();
    for (const f of found) if (f.phone && !byPhone.has(f.phone)) byPhone.set(f.phone, { id: f.id, name: f.name });
  }
  for (let i = 0; i < documents.length; i += CHUNK) {
    const found = await db
      .selectFrom('leads')
      .select(['id', 'name', 'document_number'])
      .where('document_number', 'in', documents.slice(i, i + CHUNK))
      .orderBy('id')
      .execute();
    for (const f of found)
      if (f.document_number && !byDocument.has(f.document_number)) byDocument.set(f.document_number, { id: f.id, name: f.name });
  }
  return { byPhone, byDocument };
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

/** Plans every row of `file` against the database. */
async function plan(db: Kysely<DB>, file: LeadFileResult, settings: LeadImportSettings) {
  const issues: LeadImportIssue[] = [...file.issues];
  const existing = await existingContacts(
    db,
    file.rows.filter((r) => !r.invalid),
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
    const duplicateOf =
      (parsed.phone ? existing.byPhone.get(parsed.phone) : undefined) ??
      (parsed.document_number ? existing.byDocument.get(parsed.document_number) : undefined) ??
      null;
    return { parsed, action: duplicateOf && settings.duplicates === 'MERGE' ? 'FUSIONAR' : 'NUEVO', duplicateOf };
  });
  issues.sort((a, b) => (a.severity === b.severity ? (a.row ?? 0) - (b.row ?? 0) : a.severity === 'ERROR' ? -1 : 1));
  return { rows, issues };
}

const count = (rows: readonly PlannedRow[], action: Action) => rows.filter((r) => r.action === action).length;

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
  const planned = await plan(deps.db, file, settings);
  const fileErrors = planned.issues.filter((i) => i.severity === 'ERROR' && i.row === null).length;
  return {
    total: planned.rows.length,
    create: count(planned.rows, 'NUEVO'),
    merge: count(planned.rows, 'FUSIONAR'),
    skip: count(planned.rows, 'REPETIDO'),
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
  const planned = await plan(deps.db, file, settings);
  const errors = planned.issues.filter((i) => i.severity === 'ERROR');
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new HttpError(422, LEAD_MESSAGES.importHasErrors, {
      file: [`${LEAD_MESSAGES.importHasErrors}${first.row ? ` (fila ${first.row}: ${first.message})` : `: ${first.message}`}`],
    });
  }
  if (planned.rows.length === 0) throw validationError({ file: [LEAD_MESSAGES.importEmpty] });
  const now = deps.clock.now().toISOString();
  const actor = staffActorId(audit);
  const { created, notified } = await deps.db.transaction().execute(async (trx) => {
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
    return { created: createdCount, notified: notice };
  });
  return {
    result: { created, merged: count(planned.rows, 'FUSIONAR'), skipped: count(planned.rows, 'REPETIDO') },
    events: notified.events,
  };
}
