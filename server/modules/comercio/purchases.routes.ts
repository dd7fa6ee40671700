import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PURCHASE_MESSAGES,
  customerPaymentCreatedResponseSchema,
  customerPaymentRequestSchema,
  customerPaymentResponseSchema,
  paymentOptionsQuerySchema,
  paymentOptionsResponseSchema,
  purchaseDetailQuerySchema,
  purchaseDetailResponseSchema,
  purchasesPageSchema,
  purchasesQuerySchema,
} from '../../../src/schemas/comercio/purchases';
import { WALLET_MESSAGES } from '../../../src/schemas/finanzas/wallets';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { requireAuth, type RouteAccess } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { HttpError, parseId } from '../../errors';
import { CUSTOMER_BASE } from '../../platform/bases';
import { findWalletQr } from '../finanzas/wallets.repository';
import { readVoucherUpload } from '../finanzas/payments.routes';
import { sendPdf } from '../../platform/pdf';
import { sendStoredImage } from '../../platform/stored-image';
import { addPaymentVoucher, paymentReceiptPdf, readPaymentVoucher, type PaymentActor } from '../finanzas/payments.service';
import { customerPayment, getPurchase, listPurchases, paymentOptions, payPurchase } from './purchases.service';

/** Customers only, with 'Acceso módulo comercial' + 'Acceso submódulo mis compras customers' (every customer holds them). */
export const PURCHASES_ACCESS: RouteAccess = { userTypes: ['CUSTOMER'], permission: [MODULE.comercial, SUBMODULE.misComprasCustomers] };

/** `{ id, voucher_id }` path parameters. */
const voucherParamsSchema = z.strictObject({ id: z.string(), voucher_id: z.string() });

/**
 * The customer's own purchases (issue 16 "Customer screens"; src/schemas/comercio/purchases.ts):
 * GET /api/customer/purchases, GET /api/customer/purchases/{id} (the statement),
 * GET /api/customer/payment-options[?currency=], GET /api/customer/wallets/{id}/qr, and PagoYape:
 * POST /api/customer/purchases/{id}/payments, POST /api/customer/payments/{id}/vouchers (multipart
 * `voucher`), GET /api/customer/payments/{id}/vouchers/{voucher_id}, GET /api/customer/payments/{id}/receipt.
 * The customer is the token's account; a sale or payment that is not theirs is a 404 (never a 403:
 * whether it exists is not theirs to know). Staff tokens get 403 (the routes are for customers).
 */
export function purchasesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: PURCHASES_ACCESS };
    app.get(
      `${CUSTOMER_BASE}/purchases`,
      { config, schema: { querystring: purchasesQuerySchema, response: { 200: purchasesPageSchema } } },
      async (request) => listPurchases(deps, requireAuth(request).accountId, request.query),
    );
    app.get(
      `${CUSTOMER_BASE}/purchases/:id`,
      {
        config,
        schema: { params: idParamsSchema, querystring: purchaseDetailQuerySchema, response: { 200: purchaseDetailResponseSchema } },
      },
      async (request) => ({
        data: await getPurchase(deps, requireAuth(request).accountId, parseId(request.params.id), request.query.as_of),
      }),
    );
    app.get(
      `${CUSTOMER_BASE}/payment-options`,
      { config, schema: { querystring: paymentOptionsQuerySchema, response: { 200: paymentOptionsResponseSchema } } },
      async (request) => ({ data: await paymentOptions(deps.db, request.query.currency) }),
    );
    app.post(
      `${CUSTOMER_BASE}/purchases/:id/payments`,
      {
        config,
        schema: { params: idParamsSchema, body: customerPaymentRequestSchema, response: { 201: customerPaymentCreatedResponseSchema } },
      },
      async (request, reply) => {
        const payment = await payPurchase(
          deps,
          auditContextOf(request, deps.clock),
          requireAuth(request).accountId,
          parseId(request.params.id),
          request.body,
        );
        return reply.status(201).send({ data: { payment, message: PURCHASE_MESSAGES.sent } });
      },
    );
    app.post(
      `${CUSTOMER_BASE}/payments/:id/vouchers`,
      { config, schema: { params: idParamsSchema, response: { 201: customerPaymentResponseSchema } } },
      async (request, reply) => {
        const customerId = requireAuth(request).accountId;
        const actor: PaymentActor = { kind: 'CUSTOMER', customerId, audit: auditContextOf(request, deps.clock) };
        const id = parseId(request.params.id);
        // The payment is checked first: another customer's is a 404 before the upload is read.
        await customerPayment(deps.db, customerId, id);
        await addPaymentVoucher(deps, actor, id, await readVoucherUpload(request));
        return reply.status(201).send({ data: await customerPayment(deps.db, customerId, id) });
      },
    );
    app.get(
      `${CUSTOMER_BASE}/payments/:id/vouchers/:voucher_id`,
      { config, schema: { params: voucherParamsSchema } },
      async (request, reply) =>
        sendStoredImage(
          reply,
          await readPaymentVoucher(deps.db, parseId(request.params.id), parseId(request.params.voucher_id), {
            customerId: requireAuth(request).accountId,
          }),
        ),
    );
    app.get(`${CUSTOMER_BASE}/payments/:id/receipt`, { config, schema: { params: idParamsSchema } }, async (request, reply) =>
      sendPdf(reply, await paymentReceiptPdf(deps, parseId(request.params.id), { customerId: requireAuth(request).accountId })),
    );
    app.get(`${CUSTOMER_BASE}/wallets/:id/qr`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      const qr = await findWalletQr(deps.db, parseId(request.params.id), { activeOnly: true });
      if (!qr) throw new HttpError(404, WALLET_MESSAGES.noQr);
      return sendStoredImage(reply, qr);
    });
  };
}
