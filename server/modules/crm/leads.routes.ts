import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  convertLeadRequestSchema,
  createLeadActivityRequestSchema,
  createLeadRequestSchema,
  leadActivitiesResponseSchema,
  leadActivityResponseSchema,
  leadDuplicatesQuerySchema,
  leadDuplicatesResponseSchema,
  LEAD_IMPORT_MAX_BYTES,
  LEAD_MESSAGES,
  leadImportOptionsSchema,
  leadImportPreviewResponseSchema,
  leadImportResultResponseSchema,
  leadResponseSchema,
  leadsPageSchema,
  leadsQuerySchema,
  leadsSummaryQuerySchema,
  leadsSummaryResponseSchema,
  mergeLeadRequestSchema,
  updateLeadRequestSchema,
} from '../../../src/schemas/crm/leads';
import { ACTION, MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { heldPermissions } from '../../auth/accounts';
import { requireAuth, staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, parseId, validationError } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { uploadError } from '../../uploads';
import { commitLeadImport, previewLeadImport, type LeadImportSettings } from './leads-import.service';
import {
  addLeadActivity,
  convertLead,
  createLead,
  findLeadDuplicates,
  getLead,
  getLeadActivities,
  listLeads,
  mergeLead,
  summarizeLeads,
  updateLead,
  type LeadScope,
} from './leads.service';

/**
 * Reads a lead import's multipart body: part `file` (≤ {@link LEAD_IMPORT_MAX_BYTES}) and the text
 * fields of `leadImportOptionsSchema` (channel, agent_id, duplicates), in any order.
 * @throws HttpError 422 on `file` when missing, too large or malformed; 422 on a bad option.
 */
async function readLeadUpload(request: FastifyRequest): Promise<{ bytes: Buffer; filename: string; settings: LeadImportSettings }> {
  let bytes: Buffer | null = null;
  let filename = '';
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: LEAD_IMPORT_MAX_BYTES, fieldSize: 100, files: 1, fields: 3, parts: 4 },
    })) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname === 'file') {
          bytes = content;
          filename = part.filename ?? '';
        }
      } else if (['channel', 'agent_id', 'duplicates'].includes(part.fieldname)) {
        const value = String(part.value ?? '').trim();
        if (value !== '') fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    throw uploadError(error, 'file', { missing: LEAD_MESSAGES.importMissing, tooLarge: LEAD_MESSAGES.importTooLarge });
  }
  if (!bytes || bytes.length === 0) throw fieldError('file', LEAD_MESSAGES.importMissing);
  const parsed = leadImportOptionsSchema.safeParse(fields);
  if (!parsed.success) {
    throw validationError(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'file'), [i.message]])));
  }
  return { bytes, filename, settings: parsed.data };
}

/** Who may work leads: 'Acceso módulo CRM' + 'Acceso submódulo LEADS'; 'Supervisar leads' widens the scope (leads.service.ts). */
export const LEADS_ACCESS = staffWith(MODULE.crm, SUBMODULE.leads);

/**
 * CRM → LEADS: GET/POST /api/leads, GET /api/leads/summary, GET /api/leads/duplicates,
 * GET/PATCH /api/leads/{id}, GET/POST /api/leads/{id}/activities, POST /api/leads/{id}/merge,
 * POST /api/leads/{id}/convert, POST /api/leads/imports/preview and POST /api/leads/imports
 * (CSV/XLSX, parsed on the import workers). Without 'Supervisar leads' a caller reaches only the leads
 * assigned to them (403 on another's). Assignment notifications are published after commit.
 */
export function leadsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  /** The caller's scope: one extra permission read on top of the guard's. */
  const scopeOf = async (request: FastifyRequest): Promise<LeadScope> => {
    const auth = requireAuth(request);
    const held = await heldPermissions(deps.db, auth.userType, auth.accountId, [ACTION.supervisarLeads]);
    return { userId: auth.accountId, supervisor: held.has(ACTION.supervisarLeads) };
  };

  return async (app) => {
    const config = { access: LEADS_ACCESS };
    const audit = (request: FastifyRequest) => auditContextOf(request, deps.clock);

    app.get(
      `${MAIN_BASE}/leads`,
      { config, schema: { querystring: leadsQuerySchema, response: { 200: leadsPageSchema } } },
      async (request) => listLeads(deps, request.query, await scopeOf(request)),
    );

    app.get(
      `${MAIN_BASE}/leads/summary`,
      { config, schema: { querystring: leadsSummaryQuerySchema, response: { 200: leadsSummaryResponseSchema } } },
      async (request) => ({ data: await summarizeLeads(deps, request.query, await scopeOf(request)) }),
    );

    app.get(
      `${MAIN_BASE}/leads/duplicates`,
      { config, schema: { querystring: leadDuplicatesQuerySchema, response: { 200: leadDuplicatesResponseSchema } } },
      async (request) => ({ data: await findLeadDuplicates(deps, request.query, await scopeOf(request)) }),
    );

    app.post(
      `${MAIN_BASE}/leads`,
      { config, schema: { body: createLeadRequestSchema, response: { 201: leadResponseSchema } } },
      async (request, reply) => {
        const { lead, events } = await createLead(deps, audit(request), await scopeOf(request), request.body);
        deps.broadcaster.publish(events);
        return reply.status(201).send({ data: lead });
      },
    );

    app.post(
      `${MAIN_BASE}/leads/imports/preview`,
      { config, schema: { response: { 200: leadImportPreviewResponseSchema } } },
      async (request) => {
        const scope = await scopeOf(request);
        const upload = await readLeadUpload(request);
        const file = await deps.importChecks.checkLeads(upload.bytes, upload.filename);
        return { data: await previewLeadImport(deps, scope, file, upload.settings) };
      },
    );

    app.post(`${MAIN_BASE}/leads/imports`, { config, schema: { response: { 200: leadImportResultResponseSchema } } }, async (request) => {
      const scope = await scopeOf(request);
      const upload = await readLeadUpload(request);
      const file = await deps.importChecks.checkLeads(upload.bytes, upload.filename);
      const { result, events } = await commitLeadImport(deps, audit(request), scope, file, upload.settings);
      deps.broadcaster.publish(events);
      return { data: result };
    });

    app.get(
      `${MAIN_BASE}/leads/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: leadResponseSchema } } },
      async (request) => ({ data: await getLead(deps, parseId(request.params.id), await scopeOf(request)) }),
    );

    app.patch(
      `${MAIN_BASE}/leads/:id`,
      { config, schema: { params: idParamsSchema, body: updateLeadRequestSchema, response: { 200: leadResponseSchema } } },
      async (request) => {
        const { lead, events } = await updateLead(deps, audit(request), await scopeOf(request), parseId(request.params.id), request.body);
        deps.broadcaster.publish(events);
        return { data: lead };
      },
    );

    app.get(
      `${MAIN_BASE}/leads/:id/activities`,
      { config, schema: { params: idParamsSchema, response: { 200: leadActivitiesResponseSchema } } },
      async (request) => ({ data: await getLeadActivities(deps, parseId(request.params.id), await scopeOf(request)) }),
    );

    app.post(
      `${MAIN_BASE}/leads/:id/activities`,
      { config, schema: { params: idParamsSchema, body: createLeadActivityRequestSchema, response: { 201: leadActivityResponseSchema } } },
      async (request, reply) => {
        const data = await addLeadActivity(deps, audit(request), await scopeOf(request), parseId(request.params.id), request.body);
        return reply.status(201).send({ data });
      },
    );

    app.post(
      `${MAIN_BASE}/leads/:id/merge`,
      { config, schema: { params: idParamsSchema, body: mergeLeadRequestSchema, response: { 200: leadResponseSchema } } },
      async (request) => ({
        data: await mergeLead(deps, audit(request), await scopeOf(request), parseId(request.params.id), request.body),
      }),
    );

    app.post(
      `${MAIN_BASE}/leads/:id/convert`,
      { config, schema: { params: idParamsSchema, body: convertLeadRequestSchema, response: { 200: leadResponseSchema } } },
      async (request) => ({
        data: await convertLead(deps, audit(request), await scopeOf(request), parseId(request.params.id), request.body),
      }),
    );
  };
}
