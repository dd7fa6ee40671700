import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approvePaymentRequestSchema,
  createPaymentRequestSchema,
  PAYMENT_MESSAGES,
  paymentResponseSchema,
  paymentsPageSchema,
  paymentsQuerySchema,
  reviewReasonRequestSchema,
  VOUCHER_MAX_BYTES,
} from '../../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { uploadError } from '../../uploads';
import { sendStoredImage } from '../../platform/stored-image';
import { sendPdf } from '../../platform/pdf';
import type { FastifyRequest } from 'fastify';
import {
  addPaymentVoucher,
  annulPayment,
  approvePayment,
  getPayment,
  listPayments,
  paymentReceiptPdf,
  readPaymentVoucher,
  registerPayment,
  rejectPayment,
  type CustomerScope,
  type PaymentActor,
} from './payments.service';

/** Who reviews and registers payments: 'Acceso módulo finanzas' + 'Acceso submódulo pagos'. */
export const PAYMENTS_ACCESS = staffWith(MODULE.finanzas, SUBMODULE.pagos);

/** `{ id, voucher_id }` path parameters. */
const voucherParamsSchema = z.strictObject({ id: z.string(), voucher_id: z.string() });

/**
 * Reads the one multipart file part `voucher` (≤ {@link VOUCHER_MAX_BYTES}) of a request.
 * @throws HttpError 422 on `voucher` (missing, too large, malformed body).
 */
export async function readVoucherUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file({ limits: { fileSize: VOUCHER_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    if (!file || file.fieldname !== 'voucher') throw fieldError('voucher', PAYMENT_MESSAGES.voucherMissing);
    return await file.toBuffer();
  } catch (error) {
    throw uploadError(error, 'voucher', { missing: PAYMENT_MESSAGES.voucherMissing, tooLarge: PAYMENT_MESSAGES.voucherTooLarge });
  }
}

/**
 * Finanzas → Pagos (issue 16): GET|POST /api/payments, GET /api/payments/{id},
 * POST /api/payments/{id}/approve | reject | annul, POST /api/payments/{id}/vouchers (multipart
 * `voucher`), GET /api/payments/{id}/vouchers/{voucher_id}, GET /api/payments/{id}/receipt (PDF).
 * The customer portal's routes (server/modules/comercio) call the same service with a customer scope.
 */
export function paymentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: PAYMENTS_ACCESS };
    const staff = (request: FastifyRequest): PaymentActor => ({ kind: 'STAFF', audit: auditContextOf(request, deps.clock) });
    const all: CustomerScope = {};

    app.get(
      `${MAIN_BASE}/payments`,
      { config, schema: { querystring: paymentsQuerySchema, response: { 200: paymentsPageSchema } } },
      async (request) => listPayments(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/payments`,
      { config, schema: { body: createPaymentRequestSchema, response: { 201: paymentResponseSchema } } },
      async (request, reply) => reply.status(201).send({ data: await registerPayment(deps, staff(request), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/payments/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: paymentResponseSchema } } },
      async (request) => ({ data: await getPayment(deps, parseId(request.params.id), all, auditContextOf(request, deps.clock)) }),
    );
    app.post(
      `${MAIN_BASE}/payments/:id/approve`,
      { config, schema: { params: idParamsSchema, body: approvePaymentRequestSchema, response: { 200: paymentResponseSchema } } },
      async (request) => ({
        data: await approvePayment(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.post(
      `${MAIN_BASE}/payments/:id/reject`,
      { config, schema: { params: idParamsSchema, body: reviewReasonRequestSchema, response: { 200: paymentResponseSchema } } },
      async (request) => ({
        data: await rejectPayment(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.post(
      `${MAIN_BASE}/payments/:id/annul`,
      { config, schema: { params: idParamsSchema, body: reviewReasonRequestSchema, response: { 200: paymentResponseSchema } } },
      async (request) => ({
        data: await annulPayment(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.post(
      `${MAIN_BASE}/payments/:id/vouchers`,
      { config, schema: { params: idParamsSchema, response: { 200: paymentResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        const bytes = await readVoucherUpload(request);
        return { data: await addPaymentVoucher(deps, staff(request), id, bytes) };
      },
    );
    app.get(`${MAIN_BASE}/payments/:id/vouchers/:voucher_id`, { config, schema: { params: voucherParamsSchema } }, async (request, reply) =>
      sendStoredImage(reply, await readPaymentVoucher(deps.db, parseId(request.params.id), parseId(request.params.voucher_id), all)),
    );
    app.get(`${MAIN_BASE}/payments/:id/receipt`, { config, schema: { params: idParamsSchema } }, async (request, reply) =>
      sendPdf(reply, await paymentReceiptPdf(deps, parseId(request.params.id), all)),
    );
  };
}
