import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  approveSettlementRequestSchema,
  COMMISSION_MESSAGES,
  commissionAgentResponseSchema,
  commissionAgentsPageSchema,
  commissionAgentsQuerySchema,
  commissionPoliciesPageSchema,
  commissionPoliciesQuerySchema,
  commissionPolicyResponseSchema,
  commissionsPageSchema,
  commissionsQuerySchema,
  createCommissionPolicyRequestSchema,
  createSettlementRequestSchema,
  paySettlementRequestSchema,
  SETTLEMENT_VOUCHER_MAX_BYTES,
  settlementResponseSchema,
  settlementsPageSchema,
  settlementsQuerySchema,
  updateCommissionAgentRequestSchema,
  updateCommissionPolicyRequestSchema,
} from '../../../src/schemas/administracion/commissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { ACTION, MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import { commissionsOwner } from '../../auth/scopes';
import type { AppDeps } from '../../context';
import { fieldError, parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { sendDownload } from '../../platform/documents';
import { sendPdf } from '../../platform/pdf';
import { uploadError } from '../../uploads';
import {
  approveSettlement,
  createPolicy,
  createSettlement,
  deleteSettlement,
  getSettlement,
  listAgents,
  listCommissions,
  listPolicies,
  listSettlements,
  paySettlement,
  readSettlementVoucher,
  settlementAgentPdf,
  settlementXlsx,
  updateAgent,
  updatePolicy,
  uploadSettlementVoucher,
} from './commissions.service';

/** Seeing commissions: 'Acceso módulo administración' + 'Acceso submódulo comisiones y pagos' (narrowed by 'Solo sus comisiones y las de su equipo'). */
export const COMMISSIONS_ACCESS = staffWith(MODULE.administracion, SUBMODULE.comisiones);
/** Policies, agents' settings and settlements: the submodule plus 'Gestionar comisiones y liquidaciones'. */
export const COMMISSIONS_MANAGE_ACCESS = staffWith(MODULE.administracion, SUBMODULE.comisiones, ACTION.gestionarComisiones);

/** `{ id, agent_id }` path parameters. */
const agentPdfParamsSchema = z.strictObject({ id: z.string(), agent_id: z.string() });

/**
 * Reads the one multipart file part `voucher` (≤ 10 MB) of a request.
 * @throws HttpError 422 on `voucher` (missing, too large, malformed body).
 */
async function readSettlementVoucherUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file({ limits: { fileSize: SETTLEMENT_VOUCHER_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    if (!file || file.fieldname !== 'voucher') throw fieldError('voucher', COMMISSION_MESSAGES.voucherMissing);
    return await file.toBuffer();
  } catch (error) {
    throw uploadError(error, 'voucher', { missing: COMMISSION_MESSAGES.voucherMissing, tooLarge: COMMISSION_MESSAGES.voucherTooLarge });
  }
}

/**
 * Administración → Comisiones y Pagos (docs/domain.md "Commissions"): GET /api/commissions; GET/POST
 * /api/commission-policies, PATCH /api/commission-policies/{id}; GET /api/commission-agents, PATCH
 * /api/commission-agents/{id}; GET/POST /api/commission-settlements, GET/DELETE
 * /api/commission-settlements/{id}, POST …/{id}/approve | voucher (multipart) | pay, GET
 * …/{id}/voucher, …/{id}/export (XLSX), …/{id}/agents/{agent_id}/pdf.
 */
export function commissionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const manage = { access: COMMISSIONS_MANAGE_ACCESS };
    const audit = (request: FastifyRequest) => auditContextOf(request, deps.clock);

    app.get(
      `${MAIN_BASE}/commissions`,
      { config: { access: COMMISSIONS_ACCESS }, schema: { querystring: commissionsQuerySchema, response: { 200: commissionsPageSchema } } },
      async (request) => listCommissions(deps.db, request.query, await commissionsOwner(deps.db, request)),
    );

    app.get(
      `${MAIN_BASE}/commission-policies`,
      { config: manage, schema: { querystring: commissionPoliciesQuerySchema, response: { 200: commissionPoliciesPageSchema } } },
      async (request) => listPolicies(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/commission-policies`,
      { config: manage, schema: { body: createCommissionPolicyRequestSchema, response: { 201: commissionPolicyResponseSchema } } },
      async (request, reply) => reply.status(201).send({ data: await createPolicy(deps, audit(request), request.body) }),
    );
    app.patch(
      `${MAIN_BASE}/commission-policies/:id`,
      {
        config: manage,
        schema: { params: idParamsSchema, body: updateCommissionPolicyRequestSchema, response: { 200: commissionPolicyResponseSchema } },
      },
      async (request) => ({ data: await updatePolicy(deps, audit(request), parseId(request.params.id), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/commission-agents`,
      { config: manage, schema: { querystring: commissionAgentsQuerySchema, response: { 200: commissionAgentsPageSchema } } },
      async (request) => listAgents(deps.db, request.query),
    );
    app.patch(
      `${MAIN_BASE}/commission-agents/:id`,
      {
        config: manage,
        schema: { params: idParamsSchema, body: updateCommissionAgentRequestSchema, response: { 200: commissionAgentResponseSchema } },
      },
      async (request) => ({ data: await updateAgent(deps, audit(request), parseId(request.params.id), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/commission-settlements`,
      { config: manage, schema: { querystring: settlementsQuerySchema, response: { 200: settlementsPageSchema } } },
      async (request) => listSettlements(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/commission-settlements`,
      { config: manage, schema: { body: createSettlementRequestSchema, response: { 201: settlementResponseSchema } } },
      async (request, reply) => reply.status(201).send({ data: await createSettlement(deps, audit(request), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/commission-settlements/:id`,
      { config: manage, schema: { params: idParamsSchema, response: { 200: settlementResponseSchema } } },
      async (request) => ({ data: await getSettlement(deps.db, parseId(request.params.id)) }),
    );
    app.delete(
      `${MAIN_BASE}/commission-settlements/:id`,
      { config: manage, schema: { params: idParamsSchema } },
      async (request, reply) => {
        await deleteSettlement(deps, audit(request), parseId(request.params.id));
        return reply.status(204).send();
      },
    );
    app.post(
      `${MAIN_BASE}/commission-settlements/:id/approve`,
      {
        config: manage,
        schema: { params: idParamsSchema, body: approveSettlementRequestSchema, response: { 200: settlementResponseSchema } },
      },
      async (request) => ({ data: await approveSettlement(deps, audit(request), parseId(request.params.id), request.body.version) }),
    );
    app.post(
      `${MAIN_BASE}/commission-settlements/:id/voucher`,
      { config: manage, schema: { params: idParamsSchema, response: { 200: settlementResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        const bytes = await readSettlementVoucherUpload(request);
        return { data: await uploadSettlementVoucher(deps, audit(request), id, bytes) };
      },
    );
    app.get(
      `${MAIN_BASE}/commission-settlements/:id/voucher`,
      { config: manage, schema: { params: idParamsSchema } },
      async (request, reply) => {
        const voucher = await readSettlementVoucher(deps.db, parseId(request.params.id));
        return reply
          .type(voucher.contentType)
          .header('content-disposition', 'inline')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(voucher.data);
      },
    );
    app.post(
      `${MAIN_BASE}/commission-settlements/:id/pay`,
      { config: manage, schema: { params: idParamsSchema, body: paySettlementRequestSchema, response: { 200: settlementResponseSchema } } },
      async (request) => ({ data: await paySettlement(deps, audit(request), parseId(request.params.id), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/commission-settlements/:id/export`,
      { config: manage, schema: { params: idParamsSchema } },
      async (request, reply) => sendDownload(reply, await settlementXlsx(deps, parseId(request.params.id))),
    );
    app.get(
      `${MAIN_BASE}/commission-settlements/:id/agents/:agent_id/pdf`,
      { config: manage, schema: { params: agentPdfParamsSchema } },
      async (request, reply) =>
        sendPdf(reply, await settlementAgentPdf(deps, parseId(request.params.id), parseId(request.params.agent_id))),
    );
  };
}
