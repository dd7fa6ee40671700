import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  paymentOptionsResponseSchema,
  purchaseDetailResponseSchema,
  purchasesPageSchema,
  purchasesQuerySchema,
} from '../../../src/schemas/comercio/purchases';
import { WALLET_MESSAGES } from '../../../src/schemas/finanzas/wallets';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { requireAuth, type RouteAccess } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { HttpError, parseId } from '../../errors';
import { CUSTOMER_BASE } from '../../platform/bases';
import { findWalletQr } from '../finanzas/wallets.repository';
import { getPurchase, listPurchases, paymentOptions } from './purchases.service';

/** Customers only, with 'Acceso módulo comercial' + 'Acceso submódulo mis compras customers' (every customer holds them). */
export const PURCHASES_ACCESS: RouteAccess = { userTypes: ['CUSTOMER'], permission: [MODULE.comercial, SUBMODULE.misComprasCustomers] };

/**
 * The customer's own purchases (issue 16 "Customer screens"; src/schemas/comercio/purchases.ts):
 * GET /api/customer/purchases, GET /api/customer/purchases/{id} (the statement),
 * GET /api/customer/payment-options and GET /api/customer/wallets/{id}/qr. The customer is the
 * token's account; a sale they do not hold is a 404. Staff tokens get 403 (the route is for customers).
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
      { config, schema: { params: idParamsSchema, response: { 200: purchaseDetailResponseSchema } } },
      async (request) => ({ data: await getPurchase(deps, requireAuth(request).accountId, parseId(request.params.id)) }),
    );
    app.get(`${CUSTOMER_BASE}/payment-options`, { config, schema: { response: { 200: paymentOptionsResponseSchema } } }, async () => ({
      data: await paymentOptions(deps.db),
    }));
    app.get(`${CUSTOMER_BASE}/wallets/:id/qr`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      const qr = await findWalletQr(deps.db, parseId(request.params.id), { activeOnly: true });
      if (!qr) throw new HttpError(404, WALLET_MESSAGES.noQr);
      return reply
        .header('content-type', qr.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=86400')
        .header('last-modified', new Date(qr.updatedAt).toUTCString())
        .send(qr.data);
    });
  };
}
