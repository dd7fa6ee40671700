import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONTRACT_MESSAGES,
  SIGNED_SCAN_MAX_BYTES,
  annulContractRequestSchema,
  contractPreviewResponseSchema,
  contractResponseSchema,
  contractsPageSchema,
  contractsQuerySchema,
  createContractRequestSchema,
  issueContractRequestSchema,
  updateContractRequestSchema,
} from '../../../src/schemas/administracion/contracts';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { requireAuth, staffWith, staffWithAnyOf } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, parseId } from '../../errors';
import { CUSTOMER_BASE, MAIN_BASE } from '../../platform/bases';
import { sendPdf } from '../../platform/pdf';
import { createKeptPages } from '../../platform/revision-texts';
import { todayInLimaBy } from '../../clock';
import { uploadError } from '../../uploads';
import { PURCHASES_ACCESS } from '../comercio/purchases.routes';
import {
  annulContract,
  contractPdf,
  contractsListRevision,
  createContract,
  customerContractPdf,
  getContract,
  issueContract,
  listContracts,
  previewContract,
  signedScan,
  updateContract,
  uploadSignedScan,
} from './contracts.service';

/** Generating, correcting, issuing and annulling a contract: 'Acceso módulo administración' + 'Acceso submódulo generar contrato'. */
export const CONTRACTS_WRITE_ACCESS = staffWith(MODULE.administracion, SUBMODULE.generarContrato);
/** Reading contracts (the register, one contract, its PDF and scan) and uploading the signed scan: either submodule. */
export const CONTRACTS_READ_ACCESS = staffWithAnyOf(
  [MODULE.administracion, SUBMODULE.generarContrato],
  [MODULE.administracion, SUBMODULE.registroContratos],
);

/**
 * Reads the one multipart file part `file` (≤ {@link SIGNED_SCAN_MAX_BYTES}).
 * @throws HttpError 422 on `file` (missing, too large, malformed body).
 */
async function readScanUpload(request: FastifyRequest): Promise<{ bytes: Buffer; filename: string }> {
  const messages = { missing: CONTRACT_MESSAGES.scanMissing, tooLarge: CONTRACT_MESSAGES.scanTooLarge };
  try {
    const file = await request.file({ limits: { fileSize: SIGNED_SCAN_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    if (!file || file.fieldname !== 'file') throw fieldError('file', CONTRACT_MESSAGES.scanMissing);
    return { bytes: await file.toBuffer(), filename: file.filename };
  } catch (error) {
    throw uploadError(error, 'file', messages);
  }
}

/**
 * Contracts (docs/domain.md "Contracts"; src/schemas/administracion/contracts.ts):
 * GET/POST /api/contracts, GET/PATCH /api/contracts/{id}, GET /api/contracts/{id}/preview,
 * POST /api/contracts/{id}/issue, GET /api/contracts/{id}/pdf, POST|GET
 * /api/contracts/{id}/signed-scan (multipart `file`), POST /api/contracts/{id}/annul; and the
 * customer's GET /api/customer/purchases/{id}/contract (their own purchase's issued contract).
 */
export function contractsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const read = { access: CONTRACTS_READ_ACCESS };
    const write = { access: CONTRACTS_WRITE_ACCESS };

    // Pages kept per revision of the register and Lima day (server/platform/revision-texts.ts;
    // migration 0048; docs/performance.md "Registro de Contratos"): read and serialised again only
    // after a write that changes them, or when the day (signatures overdue) changes.
    const sendPage = createKeptPages({ keep: deps.config.keepAnswers });
    app.get(
      `${MAIN_BASE}/contracts`,
      { config: read, schema: { querystring: contractsQuerySchema, response: { 200: contractsPageSchema } } },
      async (request, reply) => {
        const revision = `${await contractsListRevision(deps.db)}:${todayInLimaBy(deps.clock)}`;
        return sendPage(request, reply, { name: 'contracts', query: request.query, revision }, () => listContracts(deps, request.query));
      },
    );

    app.post(
      `${MAIN_BASE}/contracts`,
      { config: write, schema: { body: createContractRequestSchema, response: { 201: contractResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createContract(deps, auditContextOf(request, deps.clock), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/contracts/:id`,
      { config: read, schema: { params: idParamsSchema, response: { 200: contractResponseSchema } } },
      async (request) => ({ data: await getContract(deps, parseId(request.params.id)) }),
    );

    app.patch(
      `${MAIN_BASE}/contracts/:id`,
      { config: write, schema: { params: idParamsSchema, body: updateContractRequestSchema, response: { 200: contractResponseSchema } } },
      async (request) => ({
        data: await updateContract(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.get(
      `${MAIN_BASE}/contracts/:id/preview`,
      { config: read, schema: { params: idParamsSchema, response: { 200: contractPreviewResponseSchema } } },
      async (request) => ({ data: await previewContract(deps, parseId(request.params.id)) }),
    );

    app.post(
      `${MAIN_BASE}/contracts/:id/issue`,
      { config: write, schema: { params: idParamsSchema, body: issueContractRequestSchema, response: { 200: contractResponseSchema } } },
      async (request) => ({
        data: await issueContract(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.get(`${MAIN_BASE}/contracts/:id/pdf`, { config: read, schema: { params: idParamsSchema } }, async (request, reply) =>
      sendPdf(reply, await contractPdf(deps.db, parseId(request.params.id))),
    );

    app.post(
      `${MAIN_BASE}/contracts/:id/signed-scan`,
      { config: read, schema: { params: idParamsSchema, response: { 200: contractResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        // The contract is checked first: a missing one is a 404 before the upload is read.
        await getContract(deps, id);
        const upload = await readScanUpload(request);
        return { data: await uploadSignedScan(deps, auditContextOf(request, deps.clock), id, upload) };
      },
    );

    app.get(`${MAIN_BASE}/contracts/:id/signed-scan`, { config: read, schema: { params: idParamsSchema } }, async (request, reply) => {
      const scan = await signedScan(deps.db, parseId(request.params.id));
      return reply
        .type(scan.contentType)
        .header('content-disposition', `attachment; filename="${scan.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .send(scan.bytes);
    });

    app.post(
      `${MAIN_BASE}/contracts/:id/annul`,
      { config: write, schema: { params: idParamsSchema, body: annulContractRequestSchema, response: { 200: contractResponseSchema } } },
      async (request) => ({
        data: await annulContract(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.get(
      `${CUSTOMER_BASE}/purchases/:id/contract`,
      { config: { access: PURCHASES_ACCESS }, schema: { params: idParamsSchema } },
      async (request, reply) =>
        sendPdf(reply, await customerContractPdf(deps.db, requireAuth(request).accountId, parseId(request.params.id))),
    );
  };
}
